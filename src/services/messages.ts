/**
 * Every user-facing text of the first step, the product's wording verbatim, so that a translation touches the
 * catalogue only: this file and its on-demand parts stepMessages.ts, receiptMessages.ts and
 * bankListMessages.ts, which the later steps load with their code. The page is Russian throughout: the few texts first
 * given in English (the result statuses, the data error, 'Order not found', the 404 text, the incomplete-form lines)
 * have Russian wording of their own.
 */
/** The page's title for the data error: a cancelled or expired bill's own words, else the data error's. */
export const errorTitleOf = (closedAs: 'cancelled' | 'expired' | null) => (closedAs ? messages.closed[closedAs] : messages.app.dataErrorTitle);

export const messages = {
  app: {
    loading: 'Загрузка данных счета…',
    /** A step whose code is still on its way. */
    stepLoading: 'Загрузка…',
    dataError: 'Произошла ошибка при получении данных, возможно, документ уже оплачен',
    dataErrorTitle: 'Ошибка получения данных',
    back: 'Назад',
    continue: 'Продолжить',
    brand: 'Оплата онлайн',
    secure: 'Защищенное соединение',
    /** A step's view failed to render (the error boundary). */
    stepFailed: 'Не удалось загрузить страницу. Проверьте соединение и обновите страницу',
    reload: 'Обновить страницу',
    /** Code a step needed could not be loaded, even after its retry; the button loads it again. */
    codeFailed: 'Не удалось загрузить страницу. Проверьте соединение',
    retry: 'Попробовать снова',
    /** JavaScript off: paying cannot work, and the payer is told why instead of a button that spins. */
    needsScript: 'Для оплаты нужен JavaScript: включите его в настройках браузера и обновите страницу',
    /**
     * The first step's Continue, in the first HTML before the page's script runs: what it waits for, in place of a silent
     * disabled button (the account route's sign-in form says the same of itself, messages.account.signInWaiting).
     */
    continueWaiting: 'Кнопка «Продолжить» заработает, как только загрузится страница…',
    /** The page's script failed to load (public/boot.js shows this). */
    scriptFailed: 'Не удалось загрузить страницу оплаты, а для оплаты она нужна. Проверьте соединение и обновите страницу',
  },
  /** A bill that takes no payment any more, said as it is wherever it is met (opening it, Pay, a reload). */
  closed: {
    expired: 'Срок оплаты счета истек',
    cancelled: 'Счет отменен',
    /** Before the merchant's support phone and e-mail: whom to ask for a bill that can be paid. */
    support: 'Вопросы по оплате:',
  },
  header: {
    /** Before the merchant's support phone and e-mail. */
    support: 'Поддержка:',
  },
  account: {
    id: 'ID:',
    changeUser: 'Сменить пользователя',
    /** The sign-in form as the first HTML shows it, before the page's script runs it: the form's own words. */
    signInTitle: 'Авторизация',
    phone: 'Телефон',
    password: 'Пароль',
    forgot: 'Не помню пароль',
    register: 'Зарегистрироваться',
    /** What the form waits for, in place of a silent spinner. */
    signInWaiting: 'Форма входа заработает, как только загрузится страница…',
  },
  guest: {
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
    /** The block's button once points are chosen. */
    change: 'Изменить баллы',
    canUse: 'Можно использовать:',
    /** Points chosen: on the main route's block and in the way-to-pay step's sums. */
    used: 'Использовано баллов',
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
