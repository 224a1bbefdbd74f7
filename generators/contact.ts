import fc from 'fast-check';

/**
 * E-mail addresses, phone numbers and web addresses, in the plain forms real services take.
 * Built once: stringMatching compiles its pattern into an arbitrary, which is not cheap.
 */

const domain = fc.constantFrom('example.com', 'example.org', 'shop.example', 'mail.example.net');
const email = fc.tuple(fc.stringMatching(/^[a-z0-9][a-z0-9._+-]{0,15}[a-z0-9]$/), domain).map(([local, host]) => `${local}@${host}`);
const phone = fc.stringMatching(/^\+[1-9]\d{6,13}$/);
const calling = fc.stringMatching(/^[1-9]\d{0,2}$/);
const web = fc
  .tuple(domain, fc.array(fc.stringMatching(/^[a-z0-9-]{1,12}$/), { maxLength: 3 }))
  .map(([host, segments]) => `https://${host}/${segments.join('/')}`);

export function emailAddress(): fc.Arbitrary<string> {
  return email;
}

/** An international phone number: + and 7 to 14 digits. */
export function phoneNumber(): fc.Arbitrary<string> {
  return phone;
}

/** A country calling code, digits only (Phone.code). */
export function callingCode(): fc.Arbitrary<string> {
  return calling;
}

export function webAddress(): fc.Arbitrary<string> {
  return web;
}
