import { formatAmount, formatNumber, plural, secondsWord } from './format';

/**
 * Every user-facing text of the page, SPEC's quoted strings verbatim, so that a translation touches this file only
 * (DESIGN §5). The page is Russian throughout: the few texts SPEC quotes in English (the result statuses, the data
 * error, 'Order not found', the 404 text, the incomplete-form lines) are issue 17's Russian wording.
 */
export const messages = {
  app: {
    loading: 'Загрузка данных счета…',
    /** A step whose code is still on its way (not in SPEC). */
    stepLoading: 'Загрузка…',
    dataError: 'Произошла ошибка при получении данных, возможно, документ уже оплачен',
    dataErrorTitle: 'Ошибка получения данных',
    pageTitle: 'Оплата счета',
    back: 'Назад',
    continue: 'Продолжить',
    brand: 'Оплата онлайн',
    secure: 'Защищенное соединение',
    /** A step's code failed to load (not in SPEC). */
    stepFailed: 'Не удалось загрузить страницу. Проверьте соединение и обновите страницу',
    reload: 'Обновить страницу',
  },
  header: {
    /** Before the merchant's support phone and e-mail (issue 17). */
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
    /** With points chosen (issue 17): the bill's own sum and the points, above what is left to pay. */
    billSum: 'Сумма счета',
    points: 'Оплата баллами',
  },
  points: {
    blockTitle: 'Бонусные баллы',
    use: 'Использовать баллы',
    none: 'Бонусных баллов для оплаты не найдено',
    total: 'Всего бонусных баллов:',
    canUse: 'Можно использовать:',
    input: 'Сколько баллов списать',
    required: 'Заполните поле',
    /** More than can be spent typed in (issue 17: said, not silently cut). 'не более' takes the genitive: 1 балла, 5 баллов. */
    tooMany: (max: number) => `Можно списать не более ${formatNumber(max)} ${plural(max, ['балла', 'баллов', 'баллов'])}`,
  },
  code: {
    sent: 'Проверочный код был отправлен',
    digit: (n: number) => `Цифра ${n} кода`,
    resend: 'Отправить код повторно',
    resendIn: (seconds: number) => `Повторная отправка кода возможна через ${seconds} ${secondsWord(seconds)}`,
    /** The server sent no code and named no wait (hourly cap, failure): not in SPEC, which leaves it silent. */
    sendRefused: 'Не удалось отправить код, попробуйте позже',
    validity: 'Код подтверждения действует 10 минут',
    incomplete: 'Введите код',
    rejected: 'Ошибка проверки кода',
    /** The code was right but the reset or registration failed (not in SPEC, which leaves it silent). */
    finishFailed: 'Код подтвержден, но завершить не удалось. Нажмите «Продолжить», чтобы повторить',
    freeCallHint: 'Не приходит СМС? Подтвердите номер бесплатным звонком',
    label: 'Код из СМС',
    sentTo: (phone: string) => `на номер ${phone}`,
  },
  choosePaymentType: {
    title: 'Выберите способ оплаты',
    coveredByPoints: 'Счет будет полностью оплачен баллами',
    commission: (amount: number) => `Сервисный сбор: ${formatAmount(amount)} руб.`,
    prepayment: 'Сумма предоплаты',
    fee: 'Сервисный сбор',
    feeFrom: 'Сервисный сбор от',
    pointsUsed: 'Использовано баллов',
    total: 'Итого',
    pay: 'Оплатить',
    /** Pay when points cover the whole bill: nothing else is charged (issue 17). */
    payWithPoints: 'Оплатить баллами',
    /** A stale tab's Pay: the server says the bill was paid meanwhile (409). */
    alreadyPaid: 'Этот счет уже оплачен',
    alreadyPaidNote: 'Оплата по нему прошла, платить еще раз не нужно.',
    aggregatorOffer: 'Я принимаю условия оферты',
    executerOffer: 'Я принимаю условия платежа',
    offerRequired: 'Необходимо принять условия оферты',
    executerRequired: 'Необходимо принять условия платежа',
    noPaymentUrl: 'Не удалось перейти к оплате. Попробуйте сменить способ оплаты или свяжитесь с нами',
    closeWithPointsFailed: 'Не удалось закрыть счет баллами, попробуйте позже',
    offerFailed: 'Не удалось получить информацию об оферте',
  },
  /** The agreement lines: the label text, then the link that opens the offer. */
  widget: {
    title: 'Оплата SberPay',
    close: 'Закрыть окно оплаты',
  },
  validation: {
    phoneRequired: 'Не указан телефон',
    phoneStart: 'Номер должен начинаться с 9',
    phoneLength: 'Введите верный номер телефона',
    emailRequired: 'Не указан email',
    emailFormat: 'Введите корректный email',
    emailRejected: 'Email некорректен',
    passwordRequired: 'Нужно ввести пароль',
    surnameRequired: 'Введите фамилию',
    nameRequired: 'Введите имя',
    patronymicRequired: 'Введите отчество',
    privacyRequired: 'Подтвердите соглашение на обработку личных данных',
    formIncomplete: 'Форма заполнена не полностью.',
    formIncorrect: 'Извините, не все поля заполнены корректно.',
  },
  email: {
    label: 'Email для отправки чека',
  },
  /** Logged only, never shown (SPEC §8). */
  internal: {
    badEmail: 'Неверный email',
    smsFailed: 'Не удалось отправить СМС',
  },
} as const;
