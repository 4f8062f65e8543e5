import { handedOn } from './handedOn';

module.exports = handedOn('playwright-core');
