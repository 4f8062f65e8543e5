import type { ComponentType } from 'react';
import { preloadOnDemand } from '../machines/onDemand';
import { lazyStep } from './lazyStep';

/*
 * Views only some payers reach, each in its own chunk, so the first step renders sooner (initialJsGzipBytes in
 * docs/benchmarks.md): with them go formik, yup and the phone mask, which the first step does not use.
 */

/**
 * A view that leads on to the checkout's children no first step runs (paying, polling, the code flows, the free call:
 * machines/onDemand.ts) shows once their code is there too, so none of its buttons reaches a state before its machine.
 */
const leadingOn = <P extends object>(load: () => Promise<ComponentType<P>>) => lazyStep(() => Promise.all([load(), preloadOnDemand()]).then(([view]) => view));

/** The step after the first for every payer (with the offer modal): Checkout fetches it once the first is shown. */
export const ChoosePaymentType = leadingOn(() => import('./ChoosePaymentType').then((m) => m.ChoosePaymentType));
export const CheckByPhone = leadingOn(() => import('./CheckByPhone').then((m) => m.CheckByPhone));
export const CheckSendCode = leadingOn(() => import('./CheckSendCode').then((m) => m.CheckSendCode));
export const ForgotPassword = leadingOn(() => import('./ForgotPassword').then((m) => m.ForgotPassword));
export const Register = leadingOn(() => import('./Register').then((m) => m.Register));
export const ResultStep = leadingOn(() => import('./ResultStep').then((m) => m.ResultStep));
export const Sbp = leadingOn(() => import('./Sbp').then((m) => m.Sbp));
export const UsePoints = leadingOn(() => import('./UsePoints').then((m) => m.UsePoints));
/** The reg route's first step: only bills with sign-in open on it (the server renders it; the page hydrates it). */
export const Reg = lazyStep(() => import('./Reg').then((m) => m.Reg));
/** A paid bill's link: 'Счет оплачен' with the receipt. */
export const PaidBill = lazyStep(() => import('./PaidBill').then((m) => m.PaidBill));
/** The sign-in form of the registered-user step: only payers who are not signed in see it (its links start code flows). */
export const SignInForm = leadingOn(() => import('./SignInForm').then((m) => m.SignInForm));

const all = [Reg, PaidBill, ChoosePaymentType, CheckByPhone, CheckSendCode, ForgotPassword, Register, ResultStep, Sbp, UsePoints, SignInForm];

/** Loads every on-demand view now (tests, so that views render synchronously as in the page after loading). */
export const preloadViews = () => Promise.all(all.map((view) => view.preload()));
