/**
 * The texts of the steps that load on demand after the first (the fast-payment step, the payment's status, the
 * free call, the sign-in and account forms, the offer and the agreements): part of the message catalogue (messages.ts), kept in a file of their own so that the first JS does not
 * carry them (issue 17 part B won back the bytes the receipt's logic added to it), as bankListMessages.ts does.
 */
export const stepMessages = {
  status: {
    created: 'Получаем данные о платеже. Пожалуйста, не покидайте страницу',
    success: 'Оплата прошла успешно',
    declined: 'Платеж отклонен',
    /** Paid twice (issue 13): this payment came after the bill was paid, and its money went back to the payer. */
    refunded: 'Счет уже оплачен. Деньги за этот платеж возвращены',
    orderNotFound: 'Заказ не найден',
    notFound404: 'Ошибка 404. Документ не найден. Проверьте ссылку',
    resultTitle: 'Результат оплаты',
    /** Polling without a connection (issue 17); it asks again as soon as the browser is back online. */
    offline: 'Нет соединения — проверим, как только оно появится',
  },
  sbp: {
    /** How to pay on a desktop, in one line (issue 17; SPEC's 'Оплата с помощью мобильного приложения банка' said less). */
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
};
