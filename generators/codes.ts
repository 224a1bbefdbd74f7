import fc from 'fast-check';
import { matching } from './pattern';
import { properties } from './schema';

/**
 * Codes the document names without listing their values (country, currency, language, HS, colour).
 * Real ones, so a server that checks them against a registry still takes them.
 */

const COUNTRY_CODES = ['TR', 'DE', 'US', 'GB', 'FR', 'JP', 'IL', 'EG', 'BR', 'CN', 'IN', 'SA', 'NL', 'ES'];

/** A two-letter country code matching the pattern openapi.yaml gives Address.country_code. */
export function countryCode(): fc.Arbitrary<string> {
  const pattern = new RegExp(properties('Address').country_code.pattern as string);
  const valid = COUNTRY_CODES.filter((candidate) => pattern.test(candidate));
  if (valid.length === 0) throw new Error(`no known country code matches openapi.yaml's pattern ${pattern}`);
  return fc.constantFrom(...valid);
}

/** An ISO 4217 currency code. */
export function currencyCode(): fc.Arbitrary<string> {
  return fc.constantFrom('EUR', 'USD', 'TRY', 'GBP', 'JPY', 'CHF', 'SAR', 'ILS', 'BRL', 'KWD');
}

/** A language tag (BCP 47). */
export function languageTag(): fc.Arbitrary<string> {
  return fc.constantFrom('en', 'tr', 'de', 'fr', 'ar', 'he', 'ja', 'zh-Hans', 'pt-BR', 'en-GB');
}

/** A Harmonized System code: 6 to 10 digits. */
export function hsCode(): fc.Arbitrary<string> {
  return matching(/^\d{6,10}$/);
}

/** A colour code such as #FF6600. */
export function colorCode(): fc.Arbitrary<string> {
  return matching(/^#[0-9A-F]{6}$/);
}
