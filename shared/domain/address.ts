/** The spec's address object (shipments' origin and destination, home kit delivery addresses). */
export interface Address {
  name: string;
  street: string;
  house_number: string;
  postal_code: string;
  city: string;
  /** ISO 3166-1 alpha-2 */
  country: string;
  phone: string | null;
  email: string | null;
}

/** A home kit's delivery address: exactly one of a test location reference or an inline address. */
export type DeliveryAddress = { location_id: string } | (Omit<Address, 'phone' | 'email'> & { phone?: string | null; email?: string | null });
