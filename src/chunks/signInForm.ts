import type { Dependencies } from '../actors/dependencies';
import { defineSignInActor } from '../actors/signIn';
import type { ChunkLogic } from '../machines/chunks';
import { signInMachine } from '../machines/signIn';
import { SignInForm } from '../views/SignInForm';

/** The account route's sign-in form, with its machine: only payers who are not signed in see it. */
export const views = { signInForm: SignInForm };

/** Its machine as defined, the login a stub (the server's rendering, the statechart tools). */
export const children: ChunkLogic['signInForm'] = { signIn: signInMachine };

/** Its machine with the page's login. */
export const defineChildren = (deps: Dependencies): ChunkLogic['signInForm'] => ({ signIn: defineSignInActor(deps) });
