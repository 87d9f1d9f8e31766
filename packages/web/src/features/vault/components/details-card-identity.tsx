import { IDENTITY_FIELDS, type IdentityField } from '@lockit/contract';
import type { ReactNode } from 'react';
import type { EntrySecrets, OpenEntry } from '@lockit/client-core';
import type { FieldOf } from './details-field';

/** A card's fields: its number and security code hidden until revealed. */
export function cardSections(entry: OpenEntry, secrets: EntrySecrets | null, field: FieldOf): ReactNode[] {
  const sections: ReactNode[] = [];
  if (!entry.card) return sections;
  const card = entry.card;
  if (card.holder !== '') sections.push(field('holder', 'Cardholder', card.holder));
  if (card.brand !== '') sections.push(field('brand', 'Brand', card.brand));
  if (secrets?.card?.number)
    sections.push(field('number', 'Card number', secrets.card.number, { hidden: true, what: 'a card number' }));
  if (card.expMonth !== '' || card.expYear !== '')
    sections.push(field('expiry', 'Expires', `${card.expMonth.padStart(2, '0')}/${card.expYear}`));
  if (secrets?.card?.code)
    sections.push(field('code', 'Security code', secrets.card.code, { hidden: true, what: 'a security code' }));
  return sections;
}

/** An identity's fields, the filled ones only; its document numbers hidden until revealed. */
export function identitySections(entry: OpenEntry, secrets: EntrySecrets | null, field: FieldOf): ReactNode[] {
  const sections: ReactNode[] = [];
  if (!entry.identity) return sections;
  for (const name of IDENTITY_FIELDS) {
    const value = entry.identity[name];
    if (value !== '') sections.push(field(name, IDENTITY_LABELS[name], value));
  }
  const identitySecrets = secrets?.identity;
  if (identitySecrets?.ssn) sections.push(field('ssn', 'Social security number', identitySecrets.ssn, { hidden: true }));
  if (identitySecrets?.passport) sections.push(field('passport', 'Passport number', identitySecrets.passport, { hidden: true }));
  if (identitySecrets?.license) sections.push(field('license', 'Licence number', identitySecrets.license, { hidden: true }));
  return sections;
}

const IDENTITY_LABELS: Record<IdentityField, string> = {
  title: 'Title',
  firstName: 'First name',
  middleName: 'Middle name',
  lastName: 'Last name',
  email: 'Email',
  phone: 'Phone',
  company: 'Company',
  address1: 'Address',
  address2: 'Address (line 2)',
  city: 'City',
  state: 'State or region',
  postalCode: 'Postal code',
  country: 'Country',
};
