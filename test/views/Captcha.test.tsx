import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Component } from 'react';
import { PageContext } from '../../src/views/appContext';
import { chunkViews, pageCode } from '../../src/pageCode';
import { Captcha } from '../../src/views/Captcha';
import { pageConfig } from './account.fixture';

// The hCaptcha widget talks to hcaptcha.com (no network here): a stand-in with its props and its reset.
const seen: { props: Record<string, unknown>[]; resets: number } = { props: [], resets: 0 };
jest.mock('@hcaptcha/react-hcaptcha', () => ({
  __esModule: true,
  default: class FakeHCaptcha extends Component<{ onVerify: (token: string) => void; onExpire: () => void }> {
    resetCaptcha() {
      seen.resets += 1;
    }
    override render() {
      seen.props.push(this.props);
      return (
        <button type="button" onClick={() => this.props.onVerify('real-token')}>
          hCaptcha
        </button>
      );
    }
  },
}));

function renderCaptcha(captchaSiteKey: string | null, token: string | null, onVerify = jest.fn(), onExpire = jest.fn()) {
  const page = { config: { ...pageConfig, captchaSiteKey }, goBack: () => undefined, views: chunkViews(pageCode()) };
  const view = render(
    <PageContext.Provider value={page}>
      <Captcha token={token} onVerify={onVerify} onExpire={onExpire} />
    </PageContext.Provider>,
  );
  const rerender = (next: string | null) =>
    view.rerender(
      <PageContext.Provider value={page}>
        <Captcha token={next} onVerify={onVerify} onExpire={onExpire} />
      </PageContext.Provider>,
    );
  return { onVerify, onExpire, rerender };
}

test("without a site key: the stand-in checkbox 'Я не робот' yields the dev token and unticking expires it", async () => {
  const user = userEvent.setup();
  const { onVerify, onExpire, rerender } = renderCaptcha(null, null);
  expect(screen.getByRole('group', { name: 'Подтвердите, что вы не робот' })).toBeInTheDocument();
  await user.click(screen.getByLabelText('Я не робот'));
  expect(onVerify).toHaveBeenCalledWith('10000000-aaaa-bbbb-cccc-000000000001');
  rerender('10000000-aaaa-bbbb-cccc-000000000001');
  expect(screen.getByLabelText('Я не робот')).toBeChecked();
  await user.click(screen.getByLabelText('Я не робот'));
  expect(onExpire).toHaveBeenCalled();
});

test('with a site key: hCaptcha is loaded on demand, light theme and visible checkbox; a used token resets it', async () => {
  const user = userEvent.setup();
  const { onVerify, rerender } = renderCaptcha('site-key', null);
  const widget = await screen.findByRole('button', { name: 'hCaptcha' });
  expect(screen.queryByLabelText('Я не робот')).not.toBeInTheDocument();
  expect(seen.props.at(-1)).toMatchObject({ sitekey: 'site-key', theme: 'light', size: 'normal' });
  await user.click(widget);
  expect(onVerify).toHaveBeenCalledWith('real-token');
  act(() => rerender('real-token'));
  expect(seen.resets).toBe(0);
  act(() => rerender(null));
  expect(seen.resets).toBe(1);
});
