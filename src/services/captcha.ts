/**
 * The token the dev stand-in captcha ('Я не робот') yields when no hCaptcha site key is configured. It is
 * hCaptcha's documented test response; the sandbox server accepts it and nothing else does.
 */
export const DEV_CAPTCHA_TOKEN = '10000000-aaaa-bbbb-cccc-000000000001';
