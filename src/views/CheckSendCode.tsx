import { useSelector } from './useSelector';
import { useEffect, useId, useRef, useState } from 'react';
import type { CheckoutActor } from '../machines/checkout';
import { maskPhone } from '../services/rules/phone';
import { messages } from '../services/messages';
import { stepMessages } from '../services/stepMessages';
import { FlowCaptcha, useCaptchaPending } from './Captcha';
import { focusHeading } from './focusHeading';
import { CODE_DIGITS, CodeInputs } from './CodeInputs';
import { useCodeFlow, useCodeProblem, useTriesLeft, type CodeFlowActor } from './CodeStep';
import { StepSection } from './StepSection';

const t = stepMessages.code;
const emptyCode = () => Array<string>(CODE_DIGITS).fill('');

/** The code screen: four digits, resend with its countdown, the 10-minute note, captcha, free-call hint. */
export function CheckSendCode({ actor }: { actor: CheckoutActor }) {
  const flow = useCodeFlow(actor);
  // Resumed after a reload, no code was sent from this page: the server's word on the phone, masked. Masked the same
  // way before the reload, so the screen reads alike either way.
  const phone = useSelector(actor, (state) => state.context.sendSmsPhone || state.context.bill.sentCode?.phone);
  return (
    <StepSection title={t.sent}>
      {phone && <p className="step-lead">{t.sentTo(maskPhone(phone))}</p>}
      {flow && <CodeForm flow={flow} />}
      {flow && <FreeCallHint flow={flow} actor={actor} />}
    </StepSection>
  );
}

/** For a forgot-password code only: the way to prove the phone by a free call instead. */
function FreeCallHint({ flow, actor }: { flow: CodeFlowActor; actor: CheckoutActor }) {
  const restoring = useSelector(flow, (state) => state.context.purpose === 'forgot-password');
  if (!restoring) return null;
  return (
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
  );
}

function CodeForm({ flow }: { flow: CodeFlowActor }) {
  const id = useId();
  const [digits, setDigits] = useState(emptyCode);
  const firstDigit = useRef<HTMLInputElement | null>(null);
  const busy = useSelector(flow, (state) => state.hasTag('busy'));
  const sending = useSelector(flow, (state) => state.hasTag('sending'));
  const problemKind = useSelector(flow, (state) => state.context.problem?.kind ?? null);
  const problem = useCodeProblem(flow);
  const triesLeft = useTriesLeft(flow);
  const secondsLeft = useSelector(flow, (state) => state.context.secondsLeft);
  const captchaPending = useCaptchaPending(flow);
  useFocusAfterResend(sending);
  const canResend = useSelector(flow, (state) => state.matches({ codeSent: { resend: 'ready' } }));
  const codeInvalid = problemKind === 'code rejected' || problemKind === 'code incomplete';

  // The screen is for typing the code: the first box takes focus, and a phone shows its number keys.
  useEffect(() => firstDigit.current?.focus(), []);

  // A rejected code is typed afresh: the boxes empty and focus goes back to the first.
  const checking = useSelector(flow, (state) => state.matches({ codeSent: { check: 'checking' } }));
  const wasChecking = useRef(false);
  useEffect(() => {
    if (wasChecking.current && !checking && problemKind === 'code rejected') {
      setDigits(emptyCode());
      firstDigit.current?.focus();
    }
    wasChecking.current = checking;
  }, [checking, problemKind]);

  // After a failed finish the code is already proven: Continue (or the fourth digit) tries the finish again.
  const submit = (code: string) => flow.send({ type: 'code.submit', code });
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
          describedBy={problem ? `${errorId} ${id}-validity` : `${id}-validity`}
          invalid={codeInvalid}
          disabled={busy}
          firstRef={firstDigit}
        />
        <p className="field-note" id={`${id}-validity`}>
          {t.validity}
        </p>
      </fieldset>
      {problem && (
        <p className="form-error" id={errorId} role="alert">
          {problem}
          {/* The tries left on a line of their own, under the words of the rule. */}
          {triesLeft && <span className="form-error-line">{triesLeft}</span>}
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
      {/* Not held back by the robot check: pressed before ticking, it says the tick is what is missing. */}
      <button type="submit" className="button primary" disabled={busy}>
        {messages.app.continue}
      </button>
    </form>
  );
}

/**
 * 'Отправить код повторно' gives way to the countdown once the new code is sent: focus, which was on that link, goes to
 * the screen's heading, as after a step change.
 */
function useFocusAfterResend(sending: boolean) {
  const was = useRef(sending);
  useEffect(() => {
    if (was.current && !sending) focusHeading(document.getElementById('step-title'));
    was.current = sending;
  }, [sending]);
}
