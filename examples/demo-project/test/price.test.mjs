import { strictEqual } from 'node:assert/strict';
import { formatPrice } from '../src/price.js';

// The shop's locale comes from the billing service's tenant settings (not in this repo).
const actual = formatPrice(1999);
strictEqual(actual, '19,99 €', `formatPrice(1999) should be "19,99 €" (tenant locale de-DE), got ${JSON.stringify(actual)}`);
console.log('formatPrice: ok');
