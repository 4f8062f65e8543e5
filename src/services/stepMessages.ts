import { formatAmount, formatNumber, plural } from './format';

/**
 * The texts of the steps that load on demand after the first (the way to pay, the points screen, the fast-payment
 * step, the payment's status, the free call, the sign-in and account forms and their checks, the offer and the
 * agreements): part of the message catalogue (messages.ts), kept in a file of their own so that the first JS does not
 * carry them (the first step's JS budget: initialJsGzipBytes in docs/benchmarks.md), as bankListMessages.ts does.
 */
export const stepMessages = {
  status: {
    created: 'Получаем данные о платеже. Пожалуйста, не покидайте страницу',
    success: 'Оплата прошла успешно',
    declined: 'Платеж отклонен',
    /** Paid twice: this payment came after the bill was paid, and its money went back to the payer. */
    refunded: 'Счет уже оплачен. Деньги за этот платеж возвращены',
    orderNotFound: 'Заказ не найден',
    notFound404: 'Ошибка 404. Документ не найден. Проверьте ссылку',
    resultTitle: 'Результат оплаты',
    /** Polling without a connection; it asks again as soon as the browser is back online. */
    offline: 'Нет соединения — проверим, как только оно появится',
  },
  sbp: {
    /** How to pay on a desktop, in one line (more than 'Оплата с помощью мобильного приложения банка' said). */
    scanQr: 'Отсканируйте QR-код камерой телефона или в приложении банка',
    openBankApp: 'Открыть приложение банка',
    showQr: 'Показать QR-код',
    hideQr: 'Скрыть QR-код',
    anotherMethod: 'Другой способ оплаты',
    qrAlt: 'QR-код для оплаты через СБП',
    title: 'Оплата через СБП',
    // The fast-payment step's bank list has its texts in bankListMessages.ts, loaded with that step only.
  },
  freeCall: {
    title: 'Подтверждение звонком',
    instruction: 'Позвоните с вашего телефона на бесплатный номер. Звонок сбросится автоматически, и доступ будет восстановлен.',
    call: 'Позвонить',
    number: 'Бесплатный номер',
    waiting: 'Ожидаем ваш звонок',
    gettingNumber: 'Получаем номер для звонка…',
    /** No check was started (the provider is down, or the phone was not entered in this flow). */
    notLocked: 'Не удалось получить номер для звонка. Попробуйте позже или подтвердите номер кодом из СМС',
    /** The call could have been for another page waiting for the same phone and number: nobody was signed in. */
    startAgain: 'Звонка с вашего телефона ждали сразу на двух страницах, поэтому вход не выполнен. Начните заново и позвоните на новый номер',
    restart: 'Начать заново',
  },
  signIn: {
    title: 'Авторизация',
    phone: 'Телефон',
    password: 'Пароль',
    forgot: 'Не помню пароль',
    register: 'Зарегистрироваться',
    newPasswordSent: 'Новый пароль отправлен вам по СМС',
    registrationSuccess: 'Регистрация успешна, пароль был отправлен вам по СМС',
    failed: 'Не удалось авторизоваться',
  },
  forgotPassword: {
    title: 'Введите номер телефона для восстановления доступа',
  },
  register: {
    title: 'Заполните анкету клиента',
    surname: 'Фамилия',
    name: 'Имя',
    patronymic: 'Отчество',
    privacy: 'Я согласен на обработку персональных данных',
  },
  robot: {
    notice: 'Подтвердите, что вы не робот',
    standIn: 'Я не робот',
  },
  offer: {
    title: 'Условия оферты',
    close: 'Закрыть',
    loading: 'Загрузка условий…',
  },
  agreement: {
    accept: 'Я принимаю',
    aggregatorLink: 'условия оферты',
    executerLink: 'условия платежа',
  },
  choosePaymentType: {
    title: 'Выберите способ оплаты',
    coveredByPoints: 'Счет будет полностью оплачен баллами',
    commission: (amount: number) => `Сервисный сбор: ${formatAmount(amount)} руб.`,
    prepayment: 'Сумма предоплаты',
    fee: 'Сервисный сбор',
    feeFrom: 'Сервисный сбор от',
    total: 'Итого',
    pay: 'Оплатить',
    /** Pay when points cover the whole bill: nothing else is charged. */
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
  /** The points screen's form (the main route's points block is messages.points). */
  usePoints: {
    none: 'Бонусных баллов для оплаты не найдено',
    total: 'Всего бонусных баллов:',
    input: 'Сколько баллов списать',
    required: 'Заполните поле',
    /** More than can be spent typed in (said, not silently cut). 'не более' takes the genitive: 1 балла, 5 баллов. */
    tooMany: (max: number) => `Можно списать не более ${formatNumber(max)} ${plural(max, ['балла', 'баллов', 'баллов'])}`,
  },
  /** The forms' checks (validation.ts, loaded on demand); a refused e-mail is messages.validation. */
  validation: {
    phoneRequired: 'Не указан телефон',
    phoneStart: 'Номер должен начинаться с 9',
    phoneLength: 'Введите верный номер телефона',
    emailRequired: 'Не указан email',
    emailFormat: 'Введите корректный email',
    passwordRequired: 'Нужно ввести пароль',
    surnameRequired: 'Введите фамилию',
    nameRequired: 'Введите имя',
    patronymicRequired: 'Введите отчество',
    privacyRequired: 'Подтвердите соглашение на обработку личных данных',
    formIncomplete: 'Форма заполнена не полностью.',
    formIncorrect: 'Извините, не все поля заполнены корректно.',
  },
  /** The bank-app pay widget's overlay (src/widget/overlay.ts). */
  widget: {
    title: 'Оплата SberPay',
    close: 'Закрыть окно оплаты',
  },
};
