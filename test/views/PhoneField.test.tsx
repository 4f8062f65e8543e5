import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { PhoneField } from '../../src/views/PhoneField';

/** The phone as it is held by a form: the 11 digits sent to the server. */
function Form({ sent }: { sent: string[] }) {
  const [phone, setPhone] = useState('');
  return (
    <PhoneField
      id="phone"
      value={phone}
      error={null}
      onChange={(digits) => {
        sent.push(digits);
        setPhone(digits);
      }}
      onBlur={() => undefined}
    />
  );
}

function renderField() {
  const sent: string[] = [];
  render(<Form sent={sent} />);
  return { user: userEvent.setup(), field: screen.getByLabelText('Телефон') as HTMLInputElement, sent };
}

/** The Russian habits of writing a phone (a leading 8, or +7) end in the right number, typed or pasted. */
describe.each([
  ['typed with the trunk prefix 8', '89990000002'],
  ['typed with +7', '+79990000002'],
  ['typed with 7', '79990000002'],
  ['typed as the ten digits', '9990000002'],
  ['typed as written on paper', '8 (999) 000-00-02'],
])('%s', (_how, typed) => {
  test('shows +7 (999) 000-00-02 and holds 79990000002', async () => {
    const { user, field, sent } = renderField();
    await user.type(field, typed);
    expect(field).toHaveValue('+7 (999) 000-00-02');
    expect(sent.at(-1)).toBe('79990000002');
  });
});

describe.each([
  ['8 (999) 000-00-02'],
  ['+7 (999) 000-00-02'],
  ['+7 999 000 00 02'],
  ['89990000002'],
  ['+79990000002'],
  ['9990000002'],
])('pasted as %s', (pasted) => {
  // Where the paste lands: the empty field focused, or a whole number selected over.
  test.each<[string, (run: ReturnType<typeof renderField>) => Promise<void>]>([
    ['into the empty field', ({ user, field }) => user.click(field)],
    [
      'over a whole number already there (select all, paste)',
      async ({ user, field }) => {
        await user.type(field, '9121234567');
        await user.tripleClick(field);
      },
    ],
  ])('%s: +7 (999) 000-00-02', async (_, focus) => {
    const run = renderField();
    await focus(run);
    await run.user.paste(pasted);
    expect(run.field).toHaveValue('+7 (999) 000-00-02');
    expect(run.sent.at(-1)).toBe('79990000002');
  });
});

test('a 7 or an 8 inside the number is a digit like any other', async () => {
  const { user, field, sent } = renderField();
  await user.type(field, '9878787878');
  expect(field).toHaveValue('+7 (987) 878-78-78');
  expect(sent.at(-1)).toBe('79878787878');
});

test('a number that starts with neither the prefix nor 9 is kept as typed, for the form to refuse', async () => {
  const { user, field, sent } = renderField();
  await user.type(field, '5551234567');
  expect(field).toHaveValue('+7 (555) 123-45-67');
  expect(sent.at(-1)).toBe('75551234567');
});
