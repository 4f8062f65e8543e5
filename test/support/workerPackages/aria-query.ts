import { handedOn } from './handedOn';

module.exports = handedOn('aria-query');
