import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StepErrorBoundary } from '../../src/views/StepErrorBoundary';

function ChunkThatFailed(): never {
  throw new Error('Loading chunk 7 failed');
}

test('a step whose code failed to load shows an alert with a reload button instead of a blank page', async () => {
  const reload = jest.fn();
  const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  render(
    <StepErrorBoundary onReload={reload}>
      <ChunkThatFailed />
    </StepErrorBoundary>,
  );
  expect(screen.getByRole('alert')).toHaveTextContent('Не удалось загрузить страницу. Проверьте соединение и обновите страницу');
  await userEvent.click(screen.getByRole('button', { name: 'Обновить страницу' }));
  expect(reload).toHaveBeenCalledTimes(1);
  quiet.mockRestore();
});

test('a step that loads renders as it is', () => {
  render(
    <StepErrorBoundary onReload={() => undefined}>
      <h1>Выберите способ оплаты</h1>
    </StepErrorBoundary>,
  );
  expect(screen.getByRole('heading', { name: 'Выберите способ оплаты' })).toBeInTheDocument();
  expect(screen.queryByRole('alert')).toBeNull();
});
