import { formatAmount, plural } from './format';
import { messages } from './messages';
import type { DeclineReason } from './rules/declineReasons';

/** 'секунду', 'секунды', 'секунд': the resend countdown's word (here, with its only text, not on the first screen). */
export const secondsWord = (n: number) => plural(n, ['секунду', 'секунды', 'секунд']);

/**
 * The texts of the steps that load on demand after the first (the way to pay, the points screen, the fast-payment
 * step, the payment's status, the free call, the sign-in and account forms and their checks, the offer and the
 * agreements): part of the message catalogue (messages.ts), kept in a file of their own so that the first JS does not
 * carry them (the first step's JS budget: initialJsGzipBytes in docs/benchmarks.md), as bankListMessages.ts does.
 */
export const stepMessages = {
  /** The code screen (checkSendCode) and the code's checks. */
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
    /** 'Осталось 3 попытки', on its own line under 'Ошибка проверки кода': the server said how many tries the code still takes. */
    triesLeft: (n: number) => `${plural(n, ['Осталась', 'Осталось', 'Осталось'])} ${n} ${plural(n, ['попытка', 'попытки', 'попыток'])}`,
    /** Under 'Ошибка проверки кода' when the code takes no more tries (or ran out): only a new one will do. */
    noTriesLeft: 'Попыток не осталось — запросите новый код',
  },
  status: {
    created: 'Получаем данные о платеже. Пожалуйста, не покидайте страницу',
    success: 'Оплата прошла успешно',
    declined: 'Платеж отклонен',
    /** Paid twice: this payment came after the bill was paid, and its money went back to the payer. */
    refunded: 'Счет уже оплачен. Деньги за этот платеж возвращены',
    /**
     * The same, with the amount and where it goes back: to the card, or to the account a fast payment came from
     * ('Счет уже был оплачен, этот платеж возвращен: 12 345,67 руб. вернутся на карту в течение 7 рабочих дней').
     */
    refundedTo: (amount: string, to: 'card' | 'account') =>
      `Счет уже был оплачен, этот платеж возвращен: ${amount} вернутся на ${to === 'card' ? 'карту' : 'счет'} в течение 7 рабочих дней`,
    orderNotFound: 'Заказ не найден',
    notFound404: 'Ошибка 404. Документ не найден. Проверьте ссылку',
    resultTitle: 'Результат оплаты',
    /** Polling without a connection; it asks again as soon as the browser is back online. */
    offline: 'Нет соединения — проверим, как только оно появится',
  },
  sbp: {
    /** Beside the QR on a desktop. */
    desktopTitle: 'Оплата с помощью мобильного приложения банка',
    /** How to pay on a desktop, under it. */
    scanQr: 'Отсканируйте QR-код камерой телефона или в приложении банка',
    /** A phone's bank rows leave the page for the bank's app: the status says what to do, not to stay. */
    comeBack: 'Подтвердите оплату в приложении банка. После оплаты вернитесь на эту страницу',
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
    /** Which phone the line waits for: a call from another one proves nothing. */
    callFrom: (phone: string) => `Звоните с номера ${phone} — только такой звонок подтвердит номер`,
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
    // The form's words are the first HTML's too (its outline is on screen before the page's script): one copy.
    title: messages.account.signInTitle,
    phone: messages.account.phone,
    password: messages.account.password,
    forgot: messages.account.forgot,
    register: messages.account.register,
    newPasswordSent: 'Новый пароль отправлен вам по СМС',
    registrationSuccess: 'Регистрация успешна, пароль был отправлен вам по СМС',
    /** The heading of a refused sign-in; the reason, as the server gave it, under it. */
    failed: 'Не удалось авторизоваться',
    failures: {
      'wrong phone or password': 'Неверный телефон или пароль',
      'robot check': 'Подтвердите, что вы не робот, и войдите еще раз',
      'too many tries': 'Слишком много попыток входа. Попробуйте позже',
      unavailable: 'Сервис входа не ответил. Попробуйте еще раз',
    },
  },
  forgotPassword: {
    title: 'Введите номер телефона для восстановления доступа',
  },
  register: {
    title: 'Заполните анкету клиента',
    surname: 'Фамилия',
    name: 'Имя',
    patronymic: 'Отчество',
    /** The same words as its error ('…соглашение на обработку личных данных'). */
    privacy: 'Я согласен на обработку личных данных',
  },
  robot: {
    notice: 'Подтвердите, что вы не робот',
    standIn: 'Я не робот',
  },
  offer: {
    title: 'Условия оферты',
    executorTitle: 'Условия платежа',
    close: 'Закрыть',
    loading: 'Загрузка условий…',
  },
  agreement: {
    accept: 'Я принимаю',
    aggregatorLink: 'условия оферты',
    executorLink: 'условия платежа',
  },
  choosePaymentType: {
    title: 'Выберите способ оплаты',
    coveredByPoints: 'Счет будет полностью оплачен баллами',
    commission: (amount: number) => `Сервисный сбор: ${formatAmount(amount)} руб.`,
    /** A way to pay with no fee says so, rather than nothing. */
    noCommission: 'Без комиссии',
    prepayment: 'Сумма предоплаты',
    /** A bill paid in parts: what this payment pays of it. */
    partAmount: 'Сумма платежа',
    fee: 'Сервисный сбор',
    feeFrom: 'Сервисный сбор от',
    total: 'Итого',
    pay: 'Оплатить',
    /** 'Оплатить 12 530,86 руб.': the button says what it will charge. */
    payAmount: (amount: string) => `Оплатить ${amount}`,
    /** With points chosen: give them up and pay the whole price. */
    noPoints: 'Не списывать баллы',
    /** After 'Попробовать снова': what failed (the reason under it, from `decline`). */
    retryTitle: 'Предыдущий платеж отклонен',
    /** After 'Попробовать снова' on a hold the merchant (or the clock) let go: nothing was taken, the bill is open. */
    releasedTitle: 'Блокировка снята',
    retryWhat: (way: string | null, amount: string) => (way ? `${way}, ${amount}` : amount),
    /**
     * An attempt of the bill that may still be paid (a QR or a card form in this tab or another, Back from the card
     * form): said before any other way is offered.
     */
    openTitle: 'Оплата уже начата — она еще может пройти',
    openWhat: (way: string) => `Вы начали оплату способом «${way}» — на этой странице или в другой вкладке. Вернитесь к ней: второй платеж не создается.`,
    openResume: 'Вернуться к оплате',
    openAnother: 'Выбрать другой способ',
    /** Another way abandons the one begun: asked first, as the begun one can then no longer be paid. */
    openConfirmTitle: 'Отменить начатую оплату?',
    openConfirmWhat: (way: string) => `Оплата способом «${way}» будет отменена: ее QR-код, форма или ссылка больше не примут оплату.`,
    openConfirm: 'Отменить и выбрать другой способ',
    /** Pay when points cover the whole bill: nothing else is charged. */
    payWithPoints: 'Оплатить баллами',
    /** A stale tab's Pay: the server says the bill was paid meanwhile (409). */
    alreadyPaid: 'Этот счет уже оплачен',
    alreadyPaidNote: 'Оплата по нему прошла, платить еще раз не нужно.',
    aggregatorOffer: 'Я принимаю условия оферты',
    executorOffer: 'Я принимаю условия платежа',
    offerRequired: 'Необходимо принять условия оферты',
    executorRequired: 'Необходимо принять условия платежа',
    noPaymentUrl: 'Не удалось перейти к оплате. Попробуйте сменить способ оплаты или свяжитесь с нами',
    closeWithPointsFailed: 'Не удалось закрыть счет баллами, попробуйте позже',
    offerFailed: 'Не удалось получить информацию об оферте',
  },
  /** Why the bank declined a card, in the payer's words, and what to do (src/services/rules/declineReasons.ts). */
  decline: {
    reasons: {
      'insufficient funds': 'Недостаточно средств на карте',
      'card expired or blocked': 'Срок действия карты истек или карта заблокирована',
      '3-D Secure failed': 'Не пройдено подтверждение платежа в банке (3-D Secure)',
      'limit exceeded': 'Превышен лимит по карте',
    },
    advice: {
      'insufficient funds': 'Пополните карту или оплатите другой картой.',
      'card expired or blocked': 'Оплатите другой картой или обратитесь в банк, выпустивший карту.',
      '3-D Secure failed': 'Попробуйте еще раз и введите код из СМС банка или оплатите другой картой.',
      'limit exceeded': 'Измените лимит в приложении банка или оплатите другой картой.',
    },
    noReason: 'Банк не сообщил причину',
    /** What to do when the bank said no why: fit for a card and for fast payment alike. */
    noReasonAdvice: 'Попробуйте еще раз или оплатите другим способом.',
  } satisfies Record<'reasons' | 'advice', Record<DeclineReason, string>> & { noReason: string; noReasonAdvice: string },
  /** The points screen's form (the main route's points block is messages.points). */
  usePoints: {
    none: 'Бонусных баллов для оплаты не найдено',
    total: 'Всего бонусных баллов:',
    input: 'Сколько баллов списать',
    required: 'Заполните поле',
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
