/**
 * What an SMS code confirms: a new password sent by SMS, a registration, or spending points on a bill. The server
 * binds each code to one purpose, so a code asked for one cannot confirm another.
 */
export const codePurposes = ['forgot-password', 'register', 'use-points'] as const;
export type CodePurpose = (typeof codePurposes)[number];
