import { answerOf, readAnswer } from '../../src/services/accountAnswer';
import { ApiError } from '../../src/services/http';

test('reads show_captcha at the top or under json, and secondsLeft at the top or under data', () => {
  expect(readAnswer({ success: true, show_captcha: true, secondsLeft: 60 })).toEqual({ success: true, showCaptcha: true, secondsLeft: 60, error: null });
  expect(readAnswer({ success: true, json: { show_captcha: true }, data: { secondsLeft: 42 } })).toEqual({
    success: true,
    showCaptcha: true,
    secondsLeft: 42,
    error: null,
  });
  expect(readAnswer({ success: false, error: 'Ошибка проверки кода' })).toEqual({ success: false, showCaptcha: false, secondsLeft: null, error: 'Ошибка проверки кода' });
  expect(readAnswer(null)).toEqual({ success: false, showCaptcha: false, secondsLeft: null, error: null });
});

test('a 4xx refusal is an answer; a network failure or a 5xx stays an error', async () => {
  const refusal = new ApiError('Подтвердите, что вы не робот', 400, { success: false, error: 'Подтвердите, что вы не робот', show_captcha: true });
  await expect(answerOf(Promise.reject(refusal))).resolves.toEqual({ success: false, showCaptcha: true, secondsLeft: null, error: 'Подтвердите, что вы не робот' });
  const tooEarly = new ApiError('too early', 429, { success: false, show_captcha: true, secondsLeft: 30 });
  await expect(answerOf(Promise.reject(tooEarly))).resolves.toMatchObject({ secondsLeft: 30 });
  const fault = new ApiError('boom', 500, { success: false });
  await expect(answerOf(Promise.reject(fault))).rejects.toBe(fault);
  const offline = new ApiError('offline', 0);
  await expect(answerOf(Promise.reject(offline))).rejects.toBe(offline);
  await expect(answerOf(Promise.resolve({ success: true }))).resolves.toMatchObject({ success: true });
});
