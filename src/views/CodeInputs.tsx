import { useRef } from 'react';
import { stepMessages } from '../services/stepMessages';

export const CODE_DIGITS = 4;

interface Props {
  digits: string[];
  onDigitsChange: (digits: string[]) => void;
  /** Called with the whole code when the fourth digit is in. */
  onComplete: (code: string) => void;
  describedBy?: string;
  invalid: boolean;
  /** While the code is being checked. */
  disabled: boolean;
  /** Lets the screen put focus back on the first box (after a rejected code). */
  firstRef?: React.RefObject<HTMLInputElement | null>;
}

/**
 * Four single-digit inputs: focus moves on after each digit and the code is submitted
 * after the fourth; anything but a digit is cleared; Delete or a click clears all four; a pasted or autofilled
 * four-digit code fills them all. Numeric keyboard and one-time-code autofill on phones.
 */
export function CodeInputs({ digits, onDigitsChange, onComplete, describedBy, invalid, disabled, firstRef }: Props) {
  const inputs = useRef<(HTMLInputElement | null)[]>([]);
  const focus = (index: number) => inputs.current[index]?.focus();

  const fillAll = (code: string) => {
    const next = code.slice(0, CODE_DIGITS).split('');
    onDigitsChange(next);
    focus(CODE_DIGITS - 1);
    onComplete(code.slice(0, CODE_DIGITS));
  };

  const clearAll = () => {
    onDigitsChange(Array(CODE_DIGITS).fill(''));
    focus(0);
  };

  const enter = (index: number, raw: string) => {
    const typed = raw.replace(/\D/g, '');
    if (typed.length >= CODE_DIGITS) return fillAll(typed);
    const next = [...digits];
    // The last digit typed wins, so typing over a filled box replaces it.
    next[index] = typed.slice(-1);
    onDigitsChange(next);
    if (!typed) return;
    if (index < CODE_DIGITS - 1) focus(index + 1);
    const code = next.join('');
    if (code.length === CODE_DIGITS) onComplete(code);
  };

  return (
    <div className="code-inputs">
      {digits.map((digit, index) => (
        <input
          key={index}
          ref={(element) => {
            inputs.current[index] = element;
            if (index === 0 && firstRef) firstRef.current = element;
          }}
          className="code-digit"
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete="one-time-code"
          // Room for a whole code in any box: autofill and some keyboards put all four digits into one.
          maxLength={CODE_DIGITS}
          aria-label={stepMessages.code.digit(index + 1)}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={describedBy}
          // Read-only rather than disabled while checking, so keyboard focus stays where it was.
          readOnly={disabled}
          value={digit}
          onChange={(event) => enter(index, event.target.value)}
          onPaste={(event) => {
            const pasted = event.clipboardData.getData('text').replace(/\D/g, '');
            event.preventDefault();
            if (pasted.length >= CODE_DIGITS) fillAll(pasted);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Delete') {
              event.preventDefault();
              clearAll();
            } else if (event.key === 'Backspace' && !digit && index > 0) {
              event.preventDefault();
              const next = [...digits];
              next[index - 1] = '';
              onDigitsChange(next);
              focus(index - 1);
            }
          }}
          onMouseDown={(event) => {
            // A click starts the code afresh; keyboard focus moves keep the digits.
            event.preventDefault();
            clearAll();
          }}
        />
      ))}
    </div>
  );
}
