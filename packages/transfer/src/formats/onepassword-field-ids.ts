import type { TransferIdentity } from '../transfer-item';

/**
 * 1Password's own ids of card and identity fields, the same in its .1pif records and in the
 * column names of a 1Password 7 for Mac CSV ("Card number (ccnum)"). Looked up with ownValue,
 * so a file cannot reach an object's inherited names.
 */
export const ONEPASSWORD_CARD_IDS: Readonly<Record<string, 'holder' | 'number' | 'code' | 'brand'>> = {
  cardholder: 'holder',
  ccnum: 'number',
  cvv: 'code',
  type: 'brand',
};

export const ONEPASSWORD_IDENTITY_IDS: Readonly<Record<string, keyof TransferIdentity>> = {
  firstname: 'firstName',
  initial: 'middleName',
  lastname: 'lastName',
  company: 'company',
  email: 'email',
  defphone: 'phone',
  cellphone: 'phone',
};
