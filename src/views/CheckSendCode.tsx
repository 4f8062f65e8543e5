import { useSelector } from '@xstate/react';
import { useEffect, useId, useRef, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { CheckoutActor } from '../machines/checkout';
import type { codeCheckMachine } from '../machines/codeCheck';
import { formatPhone } from '../services/format';
import { messages } from '../services/messages';
import { FlowCaptcha, useCaptchaPending } from './Captcha';
import { CODE_DIGITS, CodeInputs } from './CodeInputs';

type CodeCheckActor = ActorRefFrom<typeof codeCheckMachine>;

const t = messages.code;
const emptyCode = () => Array<string>(CODE_DIGITS).fill('');

/** The code screen (SPEC §2): four digits, resend with its countdown, the 10-minute note, captcha, free-call hint. */
export function CheckSendCode({ actor }: { actor: CheckoutActor }) {
  const flow = useSelector(actor, (state) => state.children.codeCheck as CodeCheckActor | undefined);
  const phone = useSelector(actor, (state) => state.context.sendSmsPhone);
  const checkType = useSelector(actor, (state) => state.context.checkType);
  return (
    <section aria-labelledby="step-title">
      <h1 id="step-title" className="step-title">
        {t.sent}
      </h1>
      {phone && <p className="step-lead">{t.sentTo(formatPhone(phone))}</p>}
      {flow && <CodeForm flow={flow} />}
      {checkType === 'forgot-password' && (
        <p className="hint">
          <a
            className="link"
            href="#/checkByPhone"
            onClick={(event) => {
              event.preventDefault();
              actor.send({ type: 'nav.goTo', step: 'checkByPhone' });
            }}
          >
            {t.freeCallHint}
          </a>
        </p>
      )}
    </section>
  );
}

function CodeForm({ flow }: { flow: CodeCheckActor }) {
  const id = useId();
  const [digits, setDigits] = useState(emptyCode);
  const firstDigit = useRef<HTMLInputElement | null>(null);
  const busy = useSelector(flow, (state) => state.hasTag('busy'));
  const finishFailed = useSelector(flow, (state) => state.hasTag('finish failed'));
  const sending = useSelector(flow, (state) => state.hasTag('sending'));
  const error = useSelector(flow, (state) => state.context.error);
  const secondsLeft = useSelector(flow, (state) => state.context.secondsLeft);
  const captchaPending = useCaptchaPending(flow);
  const canResend = useSelector(flow, (state) => state.matches({ resend: 'ready' }));

  // A rejected code is typed afresh: the boxes empty and focus goes back to the first.
  const checking = useSelector(flow, (state) => state.matches({ check: 'checking' }));
  const wasChecking = useRef(false);
  useEffect(() => {
    if (wasChecking.current && !checking && error === t.rejected) {
      setDigits(emptyCode());
      firstDigit.current?.focus();
    }
    wasChecking.current = checking;
  }, [checking, error]);

  const submit = (code: string) => flow.send(finishFailed ? { type: 'code.finish' } : { type: 'code.submit', code });
  const errorId = `${id}-error`;

  return (
    <form
      className="form"
      noValidate
      aria-busy={busy}
      onSubmit={(event) => {
        event.preventDefault();
        submit(digits.join(''));
      }}
    >
      <fieldset className="code-field">
        <legend className="label">{t.label}</legend>
        <CodeInputs
          digits={digits}
          onDigitsChange={setDigits}
          onComplete={submit}
          describedBy={error ? `${errorId} ${id}-validity` : `${id}-validity`}
          invalid={error === t.rejected || error === t.incomplete}
          disabled={busy}
          firstRef={firstDigit}
        />
        <p className="field-note" id={`${id}-validity`}>
          {t.validity}
        </p>
      </fieldset>
      {error && (
        <p className="form-error" id={errorId} role="alert">
          {error}
        </p>
      )}
      <div className="resend">
        {canResend || sending ? (
          <button type="button" className="link" disabled={sending || captchaPending} onClick={() => flow.send({ type: 'code.resend' })}>
            {t.resend}
          </button>
        ) : (
          <p className="field-note" aria-live="off">
            {t.resendIn(secondsLeft)}
          </p>
        )}
      </div>
      <FlowCaptcha flow={flow} />
      <button type="submit" className="button primary" disabled={busy || captchaPending}>
        {messages.app.continue}
      </button>
    </form>
  );
}
