import fc from 'fast-check';
import { matching } from './pattern';

/** E-mail addresses, phone numbers and web addresses, in the plain forms real services take. */

const domain = fc.constantFrom('example.com', 'example.org', 'shop.example', 'mail.example.net');

export function emailAddress(): fc.Arbitrary<string> {
  return fc.tuple(matching(/^[a-z0-9][a-z0-9._+-]{0,15}[a-z0-9]$/), domain).map(([local, host]) => `${local}@${host}`);
}

/** An international phone number: + and 7 to 14 digits. */
export function phoneNumber(): fc.Arbitrary<string> {
  return matching(/^\+[1-9]\d{6,13}$/);
}

/** A country calling code, digits only (Phone.code). */
export function callingCode(): fc.Arbitrary<string> {
  return matching(/^[1-9]\d{0,2}$/);
}

export function webAddress(): fc.Arbitrary<string> {
  return fc.tuple(domain, fc.array(matching(/^[a-z0-9-]{1,12}$/), { maxLength: 3 })).map(([host, segments]) => `https://${host}/${segments.join('/')}`);
}
