import crypto from 'node:crypto';
import { hashPassword } from './passwords';
import type { BillRow, PaymentTypeRow, Store } from './store/store';

type DemoType = Pick<PaymentTypeRow, 'code' | 'name' | 'commission_kopecks' | 'show_aggregator_offer' | 'show_executer_offer'>;
type DemoBill = Omit<BillRow, 'created_at' | 'paid_order_id' | 'copied_from' | 'status'> & {
  paid?: boolean;
  types: DemoType[];
  /** Points credited to the bill's customer when seeded. */
  points?: number;
};

const plainType = (code: DemoType['code'], name: string, commission_kopecks: number): DemoType => ({
  code,
  name,
  commission_kopecks,
  show_aggregator_offer: 0,
  show_executer_offer: 0,
});

/** Card 1.5 %, fast payment free, bank-app pay 0.5 % of the sum, as on demo-anon. */
const usualTypes = (sumKopecks: number): DemoType[] => [
  plainType('ALL', 'Банковская карта', Math.round(sumKopecks * 0.015)),
  plainType('SBP', 'СБП', 0),
  plainType('SberPaySite', 'SberPay', Math.round(sumKopecks * 0.005)),
];

const base = { product: 'realty', object_type: 'bill', client_phone: null, client_email: null, bill_email: null, cust_no: null, no_reg: 1, points_enabled: 0, useful_points_limit: 0 } as const;

/** The demo bills of DESIGN §8. Browser tests rely on these objectOIDs and facts: keep them stable. */
export const demoBills: DemoBill[] = [
  {
    ...base,
    oid: 'demo-anon',
    purpose: 'Оплата по договору долевого участия № ДДУ-2026/145',
    sum_kopecks: 1_234_567,
    client_name: 'Иванов Иван Иванович',
    types: [plainType('ALL', 'Банковская карта', 18_519), plainType('SBP', 'СБП', 0), plainType('SberPaySite', 'SberPay', 6_173)],
  },
  {
    ...base,
    oid: 'demo-points',
    purpose: 'Предоплата за сервисное обслуживание автомобиля',
    sum_kopecks: 800_000,
    client_name: 'Петров Пётр Сергеевич',
    client_phone: '79990000001',
    cust_no: 'C-1001',
    points_enabled: 1,
    useful_points_limit: 3_000,
    points: 4_500,
    types: usualTypes(800_000),
  },
  {
    ...base,
    oid: 'demo-reg',
    purpose: 'Бронирование квартиры № 87, ЖК «Северный парк»',
    sum_kopecks: 2_500_000,
    client_name: 'Смирнова Анна Викторовна',
    no_reg: 0,
    types: usualTypes(2_500_000),
  },
  {
    ...base,
    oid: 'demo-offer',
    purpose: 'Оплата дополнительного оборудования',
    sum_kopecks: 4_990_000,
    client_name: 'Кузнецов Алексей Павлович',
    types: [
      { code: 'ALL', name: 'Банковская карта', commission_kopecks: 74_850, show_aggregator_offer: 1, show_executer_offer: 1 },
      plainType('SBP', 'СБП', 0),
    ],
  },
  {
    ...base,
    oid: 'demo-cover',
    purpose: 'Оплата парковочного места, счет № 5512',
    sum_kopecks: 150_000,
    client_name: 'Соколова Мария Андреевна',
    client_phone: '79990000003',
    cust_no: 'C-1002',
    points_enabled: 1,
    useful_points_limit: 5_000,
    points: 5_000,
    types: usualTypes(150_000),
  },
  {
    ...base,
    oid: 'demo-paid',
    purpose: 'Оплата счета № 4410',
    sum_kopecks: 500_000,
    client_name: 'Морозов Дмитрий Олегович',
    paid: true,
    types: usualTypes(500_000),
  },
];

export const demoAccount = { phone: '79990000002', password: 'demo-pass', surname: 'Смирнова', name: 'Анна', patronymic: 'Викторовна' };

async function insertBill(tx: Store, bill: DemoBill, oid: string, custNo: string | null, copiedFrom: string | null) {
  const { types, points, paid, ...row } = bill;
  await tx.insertBill({ ...row, oid, cust_no: custNo, status: paid ? 'paid' : 'open', copied_from: copiedFrom });
  for (const [position, type] of types.entries()) await tx.insertType({ ...type, oid: `${oid}.${type.code}`, bill_oid: oid, position });
  if (custNo && points) await tx.addLedgerEntry({ cust_no: custNo, delta: points, reason: 'demo credit', order_id: null });
}

/**
 * Seeds the demo bills and the demo loyalty account into an empty store; answers false when it was not empty. Processes
 * starting together on one empty database seed it once: the emptiness is checked in the seeding transaction.
 */
export async function seedDemo(store: Store, passwordCost?: number): Promise<boolean> {
  if (!(await store.isEmpty())) return false;
  const passwordHash = await hashPassword(demoAccount.password, passwordCost);
  return store.transaction(async (tx) => {
    if (!(await tx.isEmpty())) return false;
    for (const bill of demoBills) await insertBill(tx, bill, bill.oid, bill.cust_no, null);
    await tx.insertAccount({
      oid: 'user-demo-reg',
      phone: demoAccount.phone,
      surname: demoAccount.surname,
      name: demoAccount.name,
      patronymic: demoAccount.patronymic,
      email: null,
      picture: null,
      password_hash: passwordHash,
    });
    return true;
  });
}

/**
 * A new unpaid copy of a demo bill, with a customer and points of its own, so that demos and tests never run
 * out of bills to pay (DESIGN §7). Answers undefined for an unknown demo.
 */
export async function copyDemoBill(store: Store, from: string): Promise<string | undefined> {
  const demo = demoBills.find((bill) => bill.oid === from);
  if (!demo) return undefined;
  const suffix = crypto.randomBytes(6).toString('hex');
  const oid = `${from}-${suffix}`;
  // A phone of its own too: SMS limits are per phone, and copies sharing one would soon hit the hourly cap.
  const phone = demo.client_phone ? `79991${String(crypto.randomInt(0, 1_000_000)).padStart(6, '0')}` : null;
  await store.transaction((tx) =>
    insertBill(tx, { ...demo, client_phone: phone, paid: false }, oid, demo.cust_no ? `${demo.cust_no}-${suffix}` : null, from),
  );
  return oid;
}
