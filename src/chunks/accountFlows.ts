import { defineCodeFlowActors, defineFreeCallActor } from '../actors/accountFlows';
import type { Dependencies } from '../actors/dependencies';
import type { ChunkLogic } from '../machines/chunks';
import { codeFlowMachine } from '../machines/codeFlow';
import { freeCallMachine } from '../machines/freeCall';
import { CheckByPhone } from '../views/CheckByPhone';
import { CheckSendCode } from '../views/CheckSendCode';
import { ForgotPassword } from '../views/ForgotPassword';
import { Register } from '../views/Register';
import { UsePoints } from '../views/UsePoints';

/**
 * The points, password-restore and registration steps and the code screen, with the children they run: a send-code
 * flow per code purpose and the free call. With them come formik, yup and the phone mask, which no first step uses.
 */
export const views = { usePoints: UsePoints, checkSendCode: CheckSendCode, checkByPhone: CheckByPhone, forgotPassword: ForgotPassword, register: Register };

/** The children as their machines define them, their effects stubs (the server's rendering, the statechart tools). */
export const children: ChunkLogic['accountFlows'] = { pointsCode: codeFlowMachine, passwordCode: codeFlowMachine, registrationCode: codeFlowMachine, freeCall: freeCallMachine };

/** The children with the page's effects. */
export const defineChildren = (deps: Dependencies): ChunkLogic['accountFlows'] => ({ ...defineCodeFlowActors(deps), freeCall: defineFreeCallActor(deps) });
