import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { lazyStep } from '../../src/views/lazyStep';
import { deferred } from '../fixtures/fakes';

const Hello = ({ name }: { name: string }) => <p>Здравствуйте, {name}</p>;

test('shows the Suspense fallback until the chunk arrives, then the view with its props', async () => {
  const chunk = deferred<typeof Hello>();
  const load = jest.fn(() => chunk.promise);
  const Step = lazyStep(load);
  render(
    <Suspense fallback={<p>загрузка</p>}>
      <Step name="Анна" />
    </Suspense>,
  );
  expect(screen.getByText('загрузка')).toBeInTheDocument();
  await act(async () => chunk.resolve(Hello));
  expect(await screen.findByText('Здравствуйте, Анна')).toBeInTheDocument();
  expect(load).toHaveBeenCalledTimes(1);
});

test('once preloaded it renders at once, with no fallback round', async () => {
  const Step = lazyStep(async () => Hello);
  await Step.preload();
  render(
    <Suspense fallback={<p>загрузка</p>}>
      <Step name="Пётр" />
    </Suspense>,
  );
  expect(screen.getByText('Здравствуйте, Пётр')).toBeInTheDocument();
  expect(screen.queryByText('загрузка')).toBeNull();
});

test('a chunk that fails to load is tried once more after a pause', async () => {
  jest.useFakeTimers();
  try {
    const load = jest.fn<Promise<typeof Hello>, []>().mockRejectedValueOnce(new Error('network')).mockResolvedValueOnce(Hello);
    const Step = lazyStep(load);
    const loaded = Step.preload();
    await jest.advanceTimersByTimeAsync(1500);
    await expect(loaded).resolves.toBe(Hello);
    expect(load).toHaveBeenCalledTimes(2);
  } finally {
    jest.useRealTimers();
  }
});

test('after two failures a later render may try again', async () => {
  jest.useFakeTimers();
  try {
    const load = jest.fn<Promise<typeof Hello>, []>().mockRejectedValue(new Error('network'));
    const Step = lazyStep(load);
    const first = Step.preload();
    const failed = expect(first).rejects.toThrow('network');
    await jest.advanceTimersByTimeAsync(1500);
    await failed;
    load.mockResolvedValueOnce(Hello);
    await expect(Step.preload()).resolves.toBe(Hello);
  } finally {
    jest.useRealTimers();
  }
});
