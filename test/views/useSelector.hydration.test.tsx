import { act } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { createActor, createMachine } from 'xstate';
import { show } from '../../src/mount';
import { useSelector } from '../../src/views/useSelector';

// A status that an answer changes: as the server rendered it ('Получаем данные…'), then paid.
const statusMachine = createMachine({
  initial: 'waiting',
  states: { waiting: { on: { paid: 'paid' } }, paid: {} },
});
type StatusActor = ReturnType<typeof createActor<typeof statusMachine>>;

function Status({ actor }: { actor: StatusActor }) {
  const paid = useSelector(actor, (state) => state.matches('paid'));
  return <p role="status">{paid ? 'Оплата прошла успешно' : 'Получаем данные о платеже'}</p>;
}

test('an answer that comes while the page hydrates the server’s markup is shown after it, with no mismatch', async () => {
  const actor = createActor(statusMachine).start();
  const element = document.createElement('div');
  element.innerHTML = renderToString(<Status actor={actor} />);
  document.body.append(element);
  const problems: unknown[] = [];
  const onError = (event: ErrorEvent) => problems.push(event.error ?? event.message);
  window.addEventListener('error', onError);
  const consoleError = jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => problems.push(args));
  try {
    await act(async () => {
      show(element, <Status actor={actor} />, true, actor);
      // The page's own first read answers before React has hydrated (it hydrates in a transition, in slices).
      actor.send({ type: 'paid' });
    });
    expect(element.dataset.shown).toBe('hydrated');
    expect(element.textContent).toBe('Оплата прошла успешно');
    expect(problems).toEqual([]);
  } finally {
    window.removeEventListener('error', onError);
    consoleError.mockRestore();
    element.remove();
  }
});

test('a page that renders on its own reads the actor as it is', async () => {
  const actor = createActor(statusMachine).start();
  actor.send({ type: 'paid' });
  const element = document.createElement('div');
  document.body.append(element);
  await act(async () => show(element, <Status actor={actor} />, false, actor));
  expect(element.dataset.shown).toBe('rendered');
  expect(element.textContent).toBe('Оплата прошла успешно');
  element.remove();
});
