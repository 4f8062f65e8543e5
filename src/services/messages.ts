import { secondsWord } from './format';

/**
 * Every user-facing text of the first step, the product's wording verbatim, so that a translation touches the
 * catalogue only: this file and its on-demand parts stepMessages.ts, receiptMessages.ts and
 * bankListMessages.ts, which the later steps load with their code. The page is Russian throughout: the few texts first
 * given in English (the result statuses, the data error, 'Order not found', the 404 text, the incomplete-form lines)
 * have Russian wording of their own.
 */
export const messages = {
  app: {
    loading: 'Загрузка данных счета…',
    /** A step whose code is still on its way. */
    stepLoading: 'Загрузка…',
    dataError: 'Произошла ошибка при получении данных, возможно, документ уже оплачен',
    dataErrorTitle: 'Ошибка получения данных',
    pageTitle: 'Оплата счета',
    back: 'Назад',
    continue: 'Продолжить',
    brand: 'Оплата онлайн',
    secure: 'Защищенное соединение',
    /** A step's code failed to load. */
    stepFailed: 'Не удалось загрузить страницу. Проверьте соединение и обновите страницу',
    reload: 'Обновить страницу',
  },
  header: {
    /** Before the merchant's support phone and e-mail. */
    support: 'Поддержка:',
  },
  reg: {
    id: 'ID:',
    changeUser: 'Сменить пользователя',
  },
  noReg: {
    client: 'Клиент:',
  },
  paymentInfo: {
    sum: 'Сумма к оплате',
    /** With points chosen: the bill's own sum and the points, above what is left to pay. */
    billSum: 'Сумма счета',
    points: 'Оплата баллами',
  },
  /** The main route's points block; the points screen's own texts are in stepMessages.ts (usePoints). */
  points: {
    blockTitle: 'Бонусные баллы',
    use: 'Использовать баллы',
    canUse: 'Можно использовать:',
    /** Points chosen: on the main route's block and in the way-to-pay step's sums. */
    used: 'Использовано баллов',
  },
  code: {
    sent: 'Проверочный код был отправлен',
    digit: (n: number) => `Цифра ${n} кода`,
    resend: 'Отправить код повторно',
    resendIn: (seconds: number) => `Повторная отправка кода возможна через ${seconds} ${secondsWord(seconds)}`,
    /** The server sent no code and named no wait (hourly cap, failure): the payer still learns nothing came. */
    sendRefused: 'Не удалось отправить код, попробуйте позже',
    /** The SMS provider did not take the text (refused, or down): the payer's words for the internal 'Не удалось отправить СМС'. */
    smsFailed: 'Не удалось отправить СМС. Попробуйте ещё раз через минуту',
    validity: 'Код подтверждения действует 10 минут',
    incomplete: 'Введите код',
    rejected: 'Ошибка проверки кода',
    /** The code was right but the reset or registration failed: Continue tries it again. */
    finishFailed: 'Код подтвержден, но завершить не удалось. Нажмите «Продолжить», чтобы повторить',
    freeCallHint: 'Не приходит СМС? Подтвердите номер бесплатным звонком',
    label: 'Код из СМС',
    sentTo: (phone: string) => `на номер ${phone}`,
  },
  validation: {
    /** The server refused the e-mail (the first step's form); the forms' own checks are in stepMessages.ts. */
    emailRejected: 'Email некорректен',
  },
  email: {
    label: 'Email для отправки чека',
  },
  /** Logged only, never shown. */
  internal: {
    badEmail: 'Неверный email',
    smsFailed: 'Не удалось отправить СМС',
  },
} as const;
