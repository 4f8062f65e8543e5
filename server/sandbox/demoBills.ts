/** The sandbox's demo bills and demo account, seeded into an empty database, and fresh copies of them on demand. */
import crypto from 'node:crypto';
import { insertAccount } from '../accounts/accountQueries';
import { hashPassword } from '../accounts/passwords';
import { createBill, type BillInput, type PaymentTypeInput } from '../billing/bills';
import type { BillItemInput } from '../billing/items';
import { hasNoBills } from '../billing/queries';
import { moveBill } from '../payments/moves';
import { adjustPoints } from '../loyalty/ledger';
import type { Store } from '../store/store';

/** A demo bill: the input it is created from (through createBill, like any bill), and what the seed adds. */
type DemoBill = BillInput & {
  oid: string;
  /** Seeded as paid (the data error's demo). */
  paid?: boolean;
  /** Points credited to the bill's customer when seeded. */
  credit?: number;
};

/** A position of a demo bill (kopecks; quantity in thousandths of a unit). */
const item = (name: string, quantityMilli: number, priceKopecks: number, vat: BillItemInput['vat'], paymentObject: BillItemInput['paymentObject'], measure: BillItemInput['measure'] = null): BillItemInput => ({
  name,
  quantityMilli,
  priceKopecks,
  vat,
  // A prepayment for what is not yet handed over (a flat, a car's service, its equipment).
  paymentMethod: 'full_prepayment',
  paymentObject,
  measure,
});

const plainType = (code: PaymentTypeInput['code'], name: string, commissionKopecks: number): PaymentTypeInput => ({ code, name, commissionKopecks });

/** The demo bills, one per thing to try. Browser tests rely on these objectOIDs and facts: keep them stable. */
export const demoBills: DemoBill[] = [
  {
    oid: 'demo-anon',
    purpose: 'Оплата по договору долевого участия № ДДУ-2026/145',
    sumKopecks: 1_234_567,
    customer: { name: 'Иванов Иван Иванович' },
    // A developer's prepayment under a shared-construction contract: VAT-exempt.
    items: [item('Долевой взнос по ДДУ-2026/145, квартира № 145', 1000, 1_234_567, 'none', 'commodity')],
    paymentTypes: [plainType('ALL', 'Банковская карта', 18_519), plainType('SBP', 'СБП', 0), plainType('SberPaySite', 'SberPay', 6_173)],
  },
  {
    oid: 'demo-points',
    purpose: 'Предоплата за сервисное обслуживание автомобиля',
    sumKopecks: 800_000,
    customer: { name: 'Петров Пётр Сергеевич', phone: '79990000001', custNo: 'C-1001' },
    // A car's service, prepaid: the work and the oil, VAT 22 % at the calculated rate a prepayment's receipt takes.
    items: [item('Техническое обслуживание ТО-2', 1000, 650_000, 'vat122', 'service'), item('Масло моторное 5W-30', 1500, 100_000, 'vat122', 'commodity', 'liter')],
    // Up to 3 000 of the customer's 4 500 points may go to this bill.
    points: { enabled: true, usefulLimit: 3_000 },
    credit: 4_500,
  },
  {
    oid: 'demo-reg',
    purpose: 'Бронирование квартиры № 87, ЖК «Северный парк»',
    sumKopecks: 2_500_000,
    customer: { name: 'Смирнова Анна Викторовна' },
    noReg: false,
  },
  {
    oid: 'demo-offer',
    purpose: 'Оплата дополнительного оборудования',
    sumKopecks: 4_990_000,
    customer: { name: 'Кузнецов Алексей Павлович' },
    // A car's equipment, prepaid: VAT 22 % at the calculated rate.
    items: [item('Комплект зимних шин R17', 4000, 997_500, 'vat122', 'commodity'), item('Шиномонтаж и хранение', 1000, 1_000_000, 'vat122', 'service')],
    paymentTypes: [
      { code: 'ALL', name: 'Банковская карта', commissionKopecks: 74_850, showAggregatorOffer: true, showExecuterOffer: true },
      plainType('SBP', 'СБП', 0),
    ],
  },
  {
    oid: 'demo-cover',
    purpose: 'Оплата парковочного места, счет № 5512',
    sumKopecks: 150_000,
    customer: { name: 'Соколова Мария Андреевна', phone: '79990000003', custNo: 'C-1002' },
    points: { enabled: true, usefulLimit: 5_000 },
    credit: 5_000,
  },
  {
    oid: 'demo-car',
    purpose: 'Предоплата за автомобиль по договору купли-продажи № А-2026/318',
    sumKopecks: 30_000_000,
    customer: { name: 'Волков Сергей Николаевич', phone: '79990000004' },
    // A car not yet handed over: a full prepayment of the goods, VAT 22 % at the calculated rate 22/122 (a prepayment's
    // receipt names the rate so; the final one, at hand-over, names 22 %).
    items: [item('Предоплата за автомобиль Haval Jolion 1.5T, VIN X9XFF4A53RA000318', 1000, 30_000_000, 'vat122', 'commodity')],
    paymentTypes: [plainType('ALL', 'Банковская карта', 0), plainType('SBP', 'СБП', 0)],
  },
  {
    oid: 'demo-paid',
    purpose: 'Оплата счета № 4410',
    sumKopecks: 500_000,
    customer: { name: 'Морозов Дмитрий Олегович' },
    paid: true,
  },
];

export const demoAccount = { phone: '79990000002', password: 'demo-pass', surname: 'Смирнова', name: 'Анна', patronymic: 'Викторовна' };

/** Creates a demo bill (or a copy) through createBill, then what only a demo has: a paid state, a points credit. */
async function insertBill(tx: Store, bill: DemoBill, oid: string, custNo: string | null, phone: string | null, copiedFrom: string | null) {
  const { oid: _demoOid, paid, credit, ...input } = bill;
  // A demo's link is its objectOID (`/pay/demo-anon`): the demo and the sandbox tools name these bills by it.
  await createBill(tx, { ...input, objectOID: oid, linkId: oid, customer: { ...input.customer, custNo, phone }, copiedFrom });
  if (paid) await moveBill(tx, oid, { type: 'payment.succeeded', orderId: null, remainingKopecks: 0 });
  if (custNo && credit) await adjustPoints(tx, custNo, credit, 'demo credit');
}

/**
 * Seeds the demo bills and the demo loyalty account into an empty store; answers false when it was not empty. Processes
 * starting together on one empty database seed it once: the emptiness is checked in the seeding transaction.
 */
export async function seedDemo(store: Store, passwordCost?: number): Promise<boolean> {
  if (!(await hasNoBills(store))) return false;
  const passwordHash = await hashPassword(demoAccount.password, passwordCost);
  return store.transaction(async (tx) => {
    if (!(await hasNoBills(tx))) return false;
    for (const bill of demoBills) await insertBill(tx, bill, bill.oid, bill.customer?.custNo ?? null, bill.customer?.phone ?? null, null);
    await insertAccount(tx, {
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
 * out of bills to pay. Answers undefined for an unknown demo.
 */
export async function copyDemoBill(store: Store, from: string): Promise<string | undefined> {
  const demo = demoBills.find((bill) => bill.oid === from);
  if (!demo) return undefined;
  const suffix = crypto.randomBytes(6).toString('hex');
  const oid = `${from}-${suffix}`;
  // A phone of its own too: SMS limits are per phone, and copies sharing one would soon hit the hourly cap.
  const phone = demo.customer?.phone ? `79991${String(crypto.randomInt(0, 1_000_000)).padStart(6, '0')}` : null;
  const custNo = demo.customer?.custNo ? `${demo.customer.custNo}-${suffix}` : null;
  await store.transaction((tx) => insertBill(tx, { ...demo, paid: false }, oid, custNo, phone, from));
  return oid;
}
