import { answerOf, readAnswer } from '../../src/services/accountAnswer';
import { ApiError } from '../../src/services/http';

const none = { triesLeft: null, status: null };

test('reads show_captcha at the top or under json, secondsLeft at the top or under data, and the tries left', () => {
  expect(readAnswer({ success: true, show_captcha: true, secondsLeft: 60 })).toEqual({ success: true, showCaptcha: true, secondsLeft: 60, error: null, ...none });
  expect(readAnswer({ success: true, json: { show_captcha: true }, data: { secondsLeft: 42 } })).toEqual({
    success: true,
    showCaptcha: true,
    secondsLeft: 42,
    error: null,
    ...none,
  });
  expect(readAnswer({ success: false, error: 'Ошибка проверки кода', triesLeft: 3 })).toEqual({
    success: false,
    showCaptcha: false,
    secondsLeft: null,
    triesLeft: 3,
    status: null,
    error: 'Ошибка проверки кода',
  });
  expect(readAnswer({ success: false, triesLeft: '3' })).toMatchObject({ triesLeft: null });
  expect(readAnswer(null)).toEqual({ success: false, showCaptcha: false, secondsLeft: null, error: null, ...none });
});

test('a 4xx refusal is an answer; a network failure or a 5xx stays an error', async () => {
  const refusal = new ApiError('Подтвердите, что вы не робот', 400, { success: false, error: 'Подтвердите, что вы не робот', show_captcha: true });
  // The refusal's status comes along: it tells a wrong password (401) from a robot check (400) or too many tries (429).
  await expect(answerOf(Promise.reject(refusal))).resolves.toEqual({ success: false, showCaptcha: true, secondsLeft: null, triesLeft: null, status: 400, error: 'Подтвердите, что вы не робот' });
  const tooEarly = new ApiError('too early', 429, { success: false, show_captcha: true, secondsLeft: 30 });
  await expect(answerOf(Promise.reject(tooEarly))).resolves.toMatchObject({ secondsLeft: 30 });
  const fault = new ApiError('boom', 500, { success: false });
  await expect(answerOf(Promise.reject(fault))).rejects.toBe(fault);
  const offline = new ApiError('offline', 0);
  await expect(answerOf(Promise.reject(offline))).rejects.toBe(offline);
  await expect(answerOf(Promise.resolve({ success: true }))).resolves.toMatchObject({ success: true });
});
