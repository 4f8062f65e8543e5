import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '../../src/services/messages';
import { stepMessages } from '../../src/services/stepMessages';
import { EmailForm } from '../../src/views/EmailForm';


function renderForm(rejected = false) {
  const onSubmit = jest.fn();
  const view = render(<EmailForm rejected={rejected} busy={false} onSubmit={onSubmit} />);
  const field = screen.getByLabelText(messages.email.label);
  const submit = () => userEvent.click(screen.getByRole('button', { name: messages.app.continue }));
  return { ...view, onSubmit, field, submit };
}

test('the field starts with what was typed before a reload, and tells every change as it is typed', async () => {
  const onType = jest.fn();
  render(<EmailForm rejected={false} busy={false} initial="payer@exa" onType={onType} onSubmit={jest.fn()} />);
  const field = screen.getByLabelText(messages.email.label);
  expect(field).toHaveValue('payer@exa');
  await userEvent.type(field, 'm');
  expect(onType).toHaveBeenLastCalledWith('payer@exam');
});

test('an empty submit says the e-mail is missing and goes nowhere', async () => {
  const { onSubmit, field, submit } = renderForm();
  await submit();
  expect(await screen.findByRole('alert')).toHaveTextContent(stepMessages.validation.emailRequired);
  expect(field).toHaveAttribute('aria-invalid', 'true');
  expect(field).toHaveAccessibleDescription(stepMessages.validation.emailRequired);
  expect(onSubmit).not.toHaveBeenCalled();
});

test('a malformed address is named on leaving the field, not while typing the first time', async () => {
  const { field } = renderForm();
  await userEvent.type(field, 'payer@example');
  // Not touched yet: no error even though the address is still incomplete.
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(screen.queryByRole('alert')).toBeNull();
  await userEvent.tab();
  expect(await screen.findByRole('alert')).toHaveTextContent(stepMessages.validation.emailFormat);
  // Once touched, fixing it clears the error as the payer types.
  await userEvent.type(field, '.ru');
  await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
});

test('a good address is sent trimmed', async () => {
  const { onSubmit, field, submit } = renderForm();
  await userEvent.type(field, '  payer@example.ru ');
  await submit();
  await waitFor(() => expect(onSubmit).toHaveBeenCalledWith('payer@example.ru'));
  expect(onSubmit).toHaveBeenCalledTimes(1);
  expect(screen.queryByRole('alert')).toBeNull();
});

test('an address holding a control character is called incorrect and not sent', async () => {
  const { onSubmit, field, submit } = renderForm();
  await userEvent.click(field);
  await userEvent.paste('payer\u0000@example.ru');
  await submit();
  expect(await screen.findByRole('alert')).toHaveTextContent(stepMessages.validation.emailFormat);
  expect(onSubmit).not.toHaveBeenCalled();
});

test('Enter submits the form', async () => {
  const { onSubmit, field } = renderForm();
  await userEvent.type(field, 'payer@example.ru{Enter}');
  await waitFor(() => expect(onSubmit).toHaveBeenCalledWith('payer@example.ru'));
});

test('an address the server refused is emptied and called incorrect', async () => {
  const { field, rerender, onSubmit } = renderForm();
  await userEvent.type(field, 'payer@example.ru');
  rerender(<EmailForm rejected busy={false} onSubmit={onSubmit} />);
  expect(await screen.findByRole('alert')).toHaveTextContent(messages.validation.emailRejected);
  expect(field).toHaveValue('');
});

test('Continue shows it is busy at once, before the address is checked or anything has loaded', async () => {
  const { onSubmit, field } = renderForm();
  await userEvent.type(field, 'payer@example.ru');
  const button = screen.getByRole('button', { name: messages.app.continue });
  // One synchronous press: nothing awaited, so neither the schema's chunk nor any answer has come yet.
  fireEvent.click(button);
  expect(button).toHaveAttribute('aria-busy', 'true');
  expect(button).toBeDisabled();
  expect(button.querySelector('.spinner')).not.toBeNull();
  expect(onSubmit).not.toHaveBeenCalled();
  await waitFor(() => expect(onSubmit).toHaveBeenCalledWith('payer@example.ru'));
  expect(button).not.toHaveAttribute('aria-busy');
});
