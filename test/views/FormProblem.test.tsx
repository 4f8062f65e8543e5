import { render, screen } from '@testing-library/react';
import { FormProblem } from '../../src/views/FormProblem';

/** The form-level line after a submit that did not pass, in SPEC's words. */

const required = ['surname', 'phone'] as const;

test("a required field left empty: 'Форма заполнена не полностью.'", () => {
  render(<FormProblem submitted valid={false} values={{ surname: '', phone: '+7 (999) 000-00-02' }} required={required} />);
  expect(screen.getByRole('alert')).toHaveTextContent(/^Форма заполнена не полностью\.$/);
});

test("every required field filled, one wrong: 'Извините, не все поля заполнены корректно.'", () => {
  render(<FormProblem submitted valid={false} values={{ surname: 'Петров', phone: '+7 (999' }} required={required} />);
  expect(screen.getByRole('alert')).toHaveTextContent(/^Извините, не все поля заполнены корректно\.$/);
});

test('nothing before a submit, nor after a valid one', () => {
  const { rerender } = render(<FormProblem submitted={false} valid={false} values={{ surname: '', phone: '' }} required={required} />);
  expect(screen.queryByRole('alert')).toBeNull();
  rerender(<FormProblem submitted valid values={{ surname: 'Петров', phone: '+7 (999) 000-00-02' }} required={required} />);
  expect(screen.queryByRole('alert')).toBeNull();
});
