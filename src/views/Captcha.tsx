import { useSelector } from './useSelector';
import { lazy, Suspense, useEffect, useId, useRef } from 'react';
import type HCaptchaType from '@hcaptcha/react-hcaptcha';
import type { ActorRef, Snapshot } from 'xstate';
import { isCaptchaPending, type CaptchaEvent, type CaptchaState } from '../machines/accountFlow';
import { DEV_CAPTCHA_TOKEN } from '../services/captcha';
import { stepMessages } from '../services/stepMessages';
import { usePage } from './appContext';

// hCaptcha is loaded only when a screen needs the robot check, so it stays out of the initial bundle.
const HCaptcha = lazy(() => import('@hcaptcha/react-hcaptcha'));

interface Props {
  /** The token of the passed check, or null; going back to null (used or expired) resets the widget. */
  token: string | null;
  /** The check is what stands in the way now (the server asked for it, or Continue was pressed before it): said at once. */
  urgent?: boolean;
  /** A new value each time the payer pressed on before ticking: the check takes focus, so each press is answered. */
  asked?: object | null;
  onVerify: (token: string) => void;
  onExpire: () => void;
}

/**
 * The robot check ('Я не робот'): hCaptcha (visible checkbox, light theme) when the page has a site key; otherwise the
 * dev stand-in checkbox 'Я не робот', whose token the sandbox server accepts.
 */
export function Captcha({ token, urgent = false, asked = null, onVerify, onExpire }: Props) {
  const { config } = usePage();
  const id = useId();
  const group = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (asked) group.current?.focus();
  }, [asked]);
  return (
    <div ref={group} tabIndex={-1} className={urgent ? 'captcha is-urgent' : 'captcha'} role="group" aria-labelledby={`${id}-notice`}>
      {/* The one instruction when it is what is missing: announced, in place of a second line that would say the same. */}
      <p className="captcha-notice" id={`${id}-notice`} role={urgent ? 'alert' : undefined}>
        {stepMessages.robot.notice}
      </p>
      {config.captchaSiteKey ? (
        <Suspense fallback={<span className="spinner" aria-hidden="true" />}>
          <RealCaptcha siteKey={config.captchaSiteKey} token={token} onVerify={onVerify} onExpire={onExpire} />
        </Suspense>
      ) : (
        <label className="agreement captcha-stand-in">
          <input type="checkbox" checked={token !== null} onChange={(event) => (event.target.checked ? onVerify(DEV_CAPTCHA_TOKEN) : onExpire())} />
          <span>{stepMessages.robot.standIn}</span>
        </label>
      )}
    </div>
  );
}

/**
 * Any account flow's actor: its context carries the robot check's state (and a send-code flow's problem), its tags say
 * when it is busy, and it takes the widget's events.
 */
export type RobotCheckFlow = ActorRef<Snapshot<unknown> & { context: CaptchaState & { problem?: { kind: string } | null }; hasTag(tag: 'busy'): boolean }, CaptchaEvent>;

/** Continue (and resend) wait while the flow's robot check is shown and not passed. */
export const useCaptchaPending = (flow: RobotCheckFlow) => useSelector(flow, (state) => isCaptchaPending(state.context));

/** The flow's robot check, shown when the flow asks for it, its answers sent to the flow. */
export function FlowCaptcha({ flow }: { flow: RobotCheckFlow }) {
  const showCaptcha = useSelector(flow, (state) => state.context.showCaptcha);
  const token = useSelector(flow, (state) => state.context.captcha);
  const problem = useSelector(flow, (state) => state.context.problem ?? null);
  const urgent = problem?.kind === 'robot check';
  if (!showCaptcha) return null;
  return (
    <Captcha
      token={token}
      urgent={urgent && token === null}
      asked={urgent ? problem : null}
      onVerify={(value) => flow.send({ type: 'captcha.verified', token: value })}
      onExpire={() => flow.send({ type: 'captcha.expired' })}
    />
  );
}

function RealCaptcha({ siteKey, token, onVerify, onExpire }: Props & { siteKey: string }) {
  const widget = useRef<HCaptchaType>(null);
  const hadToken = useRef(false);
  useEffect(() => {
    // A token is good for one call: once the flow has used it, the widget asks again.
    if (token === null && hadToken.current) widget.current?.resetCaptcha();
    hadToken.current = token !== null;
  }, [token]);
  return (
    <HCaptcha
      ref={widget}
      sitekey={siteKey}
      theme="light"
      size="normal"
      languageOverride="ru"
      onVerify={(value) => onVerify(value)}
      onExpire={onExpire}
      onError={onExpire}
    />
  );
}
