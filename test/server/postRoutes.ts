/** Every POST route of the API with a body the page would send (some refused later for business reasons). */
export const postRoutes: { url: string; form?: boolean; body: Record<string, unknown> | undefined; requiredField?: string }[] = [
  { url: '/ajax/check-email/', body: { email: 'payer@example.ru' } },
  { url: '/ajax/realty/freeCallLock/', form: true, body: { phone: '79990000001' } },
  { url: '/ajax/realty/freeCall/', form: true, body: { phone: '79990000001' } },
  { url: '/ajax/realty/checkUser/', body: undefined },
  { url: '/ajax/get-user', body: { token: 'x' } },
  {
    url: '/ajax/registration/',
    body: { surname: 'Иванов', name: 'Иван', patronymic: 'Иванович', patronimyc: 'Иванович', phone: '79991112233', privacy: true, personalDataAgreement: true, captcha: null },
  },
  { url: '/ajax/sendSMS/', body: { login: '79990000002', captcha: null } },
  { url: '/ajax/realty/login/', form: true, body: { login: '79990000002', phone: '79990000002', password: 'demo-pass', captcha: '' }, requiredField: 'phone' },
  { url: '/ajax/logout', body: {} },
  { url: '/ajax/realty/logout/', body: undefined },
  { url: '/api/getPaymentUrl/', body: { pointsSum: null, objectOID: 'demo-anon', cardTypeOID: 'demo-anon.ALL', email: 'payer@example.ru', userOID: null, manager_id: null } },
  { url: '/api/offerText/', body: { type: 'aggregator', objectOID: 'demo-offer', cardTypeOID: 'demo-offer.ALL' } },
  { url: '/api/getResult/', body: { transactionID: 'nope', billOID: 'demo-anon' } },
  {
    url: '/api/send-sms/',
    body: { phone: null, objectOID: 'demo-points', captchaVerified: false, custNo: 'C-1001', usePoints: true, captcha: null, purpose: 'use-points' },
    requiredField: 'purpose',
  },
  { url: '/api/check-code/', body: { code: '1234', phone: null, objectOID: 'demo-points', custNo: 'C-1001', usePoints: true, purpose: 'use-points' } },
];
