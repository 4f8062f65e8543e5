import { lazyStep } from './lazyStep';

/*
 * Views only some payers reach, each in its own chunk, so the first step renders sooner (initialJsGzipBytes in
 * docs/benchmarks.md): with them go formik, yup and the phone mask, which the first step does not use.
 */
/** The step after the first for every payer (with the offer modal): Checkout fetches it once the first is shown. */
export const ChoosePaymentType = lazyStep(() => import('./ChoosePaymentType').then((m) => m.ChoosePaymentType));
export const CheckByPhone = lazyStep(() => import('./CheckByPhone').then((m) => m.CheckByPhone));
export const CheckSendCode = lazyStep(() => import('./CheckSendCode').then((m) => m.CheckSendCode));
export const ForgotPassword = lazyStep(() => import('./ForgotPassword').then((m) => m.ForgotPassword));
export const Register = lazyStep(() => import('./Register').then((m) => m.Register));
export const ResultStep = lazyStep(() => import('./ResultStep').then((m) => m.ResultStep));
export const Sbp = lazyStep(() => import('./Sbp').then((m) => m.Sbp));
export const UsePoints = lazyStep(() => import('./UsePoints').then((m) => m.UsePoints));
/** A paid bill's link: 'Счет оплачен' with the receipt. */
export const PaidBill = lazyStep(() => import('./PaidBill').then((m) => m.PaidBill));
/** The sign-in form of the registered-user step: only payers who are not signed in see it. */
export const SignInForm = lazyStep(() => import('./SignInForm').then((m) => m.SignInForm));

const all = [PaidBill, ChoosePaymentType, CheckByPhone, CheckSendCode, ForgotPassword, Register, ResultStep, Sbp, UsePoints, SignInForm];

/** Loads every on-demand view now (tests, so that views render synchronously as in the page after loading). */
export const preloadViews = () => Promise.all(all.map((view) => view.preload()));
