import type { ChunkLogic } from '../machines/chunks';
import { PaidBill } from '../views/PaidBill';

/** A paid bill's link: 'Счет оплачен' with the receipt. A view only. */
export const views = { paidBill: PaidBill };

export const children: ChunkLogic['paidBill'] = {};

export const defineChildren = (): ChunkLogic['paidBill'] => ({});
