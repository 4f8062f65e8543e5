import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor } from 'xstate';
import { offerMachine, type OfferRequest } from '../../src/machines/offer';
import { stepMessages } from '../../src/services/stepMessages';
import { OfferModal } from '../../src/views/OfferModal';
import { fakeRequest, flush } from '../fixtures/fakes';

function renderModal() {
  const fetchOffer = fakeRequest<string, OfferRequest>();
  const offer = createActor(offerMachine.provide({ actors: { fetchOffer: fetchOffer.logic }, actions: { 'log error': () => undefined } }), {
    input: { objectOID: 'bill-1' },
  }).start();
  render(
    <>
      <button type="button" onClick={() => offer.send({ type: 'offer.open', kind: 'aggregator', cardTypeOID: 'type-card' })}>
        условия оферты
      </button>
      <OfferModal offer={offer} />
    </>,
  );
  const answer = async (text: string | Error) => {
    await act(async () => {
      if (text instanceof Error) fetchOffer.last.answer.reject(text);
      else fetchOffer.last.answer.resolve(text);
      await flush();
    });
  };
  return { offer, fetchOffer, answer };
}

test('closed until asked; a dialog named by its title, busy while loading, then the text', async () => {
  const { answer } = renderModal();
  expect(screen.queryByRole('dialog')).toBeNull();
  await userEvent.click(screen.getByRole('button', { name: 'условия оферты' }));
  const dialog = screen.getByRole('dialog', { name: stepMessages.offer.title });
  expect(dialog).toHaveAttribute('aria-modal', 'true');
  expect(dialog).toHaveAttribute('aria-busy', 'true');
  expect(screen.getByRole('status')).toHaveTextContent(stepMessages.offer.loading);
  await answer('<h2>Оферта платежного агрегатора</h2><p>Платеж принимает <b>агрегатор</b>.</p>');
  expect(screen.getByRole('heading', { name: 'Оферта платежного агрегатора' })).toBeInTheDocument();
  expect(screen.getByText(/Платеж принимает/)).toHaveTextContent('Платеж принимает агрегатор.');
});

test('focus moves to "Закрыть", stays inside on Tab, and returns to the link on close', async () => {
  const { answer } = renderModal();
  const link = screen.getByRole('button', { name: 'условия оферты' });
  await userEvent.click(link);
  await answer('<p>Текст <a href="https://example.com/offer">полностью</a></p>');
  const close = screen.getByRole('button', { name: stepMessages.offer.close });
  expect(close).toHaveFocus();
  await userEvent.tab();
  expect(screen.getByRole('link', { name: 'полностью' })).toHaveFocus();
  await userEvent.tab();
  expect(close).toHaveFocus();
  await userEvent.tab({ shift: true });
  expect(screen.getByRole('link', { name: 'полностью' })).toHaveFocus();
  await userEvent.click(close);
  expect(screen.queryByRole('dialog')).toBeNull();
  expect(link).toHaveFocus();
});

test('Escape closes it', async () => {
  const { answer } = renderModal();
  await userEvent.click(screen.getByRole('button', { name: 'условия оферты' }));
  await answer('<p>Текст</p>');
  await userEvent.keyboard('{Escape}');
  expect(screen.queryByRole('dialog')).toBeNull();
});

test('a failed request shows "Не удалось получить информацию об оферте"', async () => {
  const { answer } = renderModal();
  await userEvent.click(screen.getByRole('button', { name: 'условия оферты' }));
  await answer(new Error('404'));
  expect(screen.getByRole('alert')).toHaveTextContent(stepMessages.choosePaymentType.offerFailed);
});

test('the text is parsed, not injected: scripts, handlers and script links do not survive', async () => {
  const { answer } = renderModal();
  await userEvent.click(screen.getByRole('button', { name: 'условия оферты' }));
  await answer('<p onclick="alert(1)">Текст<script>window.hacked = 1</script><img src=x onerror="alert(1)"><a href="javascript:alert(1)">ссылка</a></p><iframe src="https://evil.example"></iframe>');
  const dialog = screen.getByRole('dialog');
  expect(dialog.querySelector('script, img, iframe, [onclick]')).toBeNull();
  expect(screen.getByText('ссылка')).not.toHaveAttribute('href');
  expect((window as { hacked?: number }).hacked).toBeUndefined();
});
