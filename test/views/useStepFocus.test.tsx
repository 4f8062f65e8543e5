import { render, screen } from '@testing-library/react';
import { StepSection } from '../../src/views/StepSection';
import { useStepFocus } from '../../src/views/useStepFocus';

function Step({ name }: { name: string }) {
  useStepFocus(name);
  // A new step is a new section, as each step is its own view.
  return (
    <section key={name}>
      <h1 id="step-title">{name}</h1>
      <input aria-label="Поле" autoFocus={false} />
    </section>
  );
}

test('the first step takes no focus; a new step puts focus on its heading, out of the Tab order', () => {
  const { rerender } = render(<Step name="guest" />);
  expect(document.activeElement).toBe(document.body);
  expect(screen.getByRole('heading')).not.toHaveAttribute('tabindex');

  screen.getByLabelText('Поле').focus();
  rerender(<Step name="guest" />);
  expect(screen.getByLabelText('Поле')).toHaveFocus();

  rerender(<Step name="choosePaymentType" />);
  expect(screen.getByRole('heading', { name: 'choosePaymentType' })).toHaveFocus();
  expect(screen.getByRole('heading')).toHaveAttribute('tabindex', '-1');
});

test('no step yet (an empty name) neither focuses nor counts as the first step', () => {
  const { rerender } = render(<Step name="" />);
  rerender(<Step name="account" />);
  expect(document.activeElement).toBe(document.body);
  rerender(<Step name="forgot-password" />);
  expect(screen.getByRole('heading')).toHaveFocus();
});

test('a step whose section appears a moment later (a lazy view) gets focus on its heading when it does', () => {
  function Late({ name, ready }: { name: string; ready: boolean }) {
    useStepFocus(name);
    return ready ? <StepSection title={name} /> : <p>…</p>;
  }
  const { rerender } = render(<Late name="guest" ready />);
  rerender(<Late name="sbp" ready={false} />);
  expect(document.activeElement).toBe(document.body);
  rerender(<Late name="sbp" ready />);
  expect(screen.getByRole('heading', { name: 'sbp' })).toHaveFocus();
  // Only once: a section that mounts later with no step change takes nothing.
  screen.getByRole('heading', { name: 'sbp' }).blur();
  render(<StepSection title="другая" />);
  expect(document.activeElement).toBe(document.body);
});

test('a step that focused something of its own keeps that focus', () => {
  function Own({ name }: { name: string }) {
    useStepFocus(name);
    return (
      <section key={name}>
        <h1 id="step-title">{name}</h1>
        <input aria-label="Своё поле" ref={(element) => element?.focus()} />
      </section>
    );
  }
  const { rerender } = render(<Own name="guest" />);
  rerender(<Own name="checkSendCode" />);
  expect(screen.getByLabelText('Своё поле')).toHaveFocus();
});
