/** One TanStack form holds the calculator's state; the desktop form and the mobile wizard both edit it. */
import { useForm, useSelector } from '@tanstack/react-form';
import { DEFAULT_FORM, emptyValue, isCommercial, isResidentialInput, type Edition, type FormValues, type PropertyType } from '../lib/model.js';
import { KEYS, setItem } from '../lib/storage.js';

export function useCalculatorForm(initial: FormValues = DEFAULT_FORM) {
  return useForm({ defaultValues: initial });
}
export type CalculatorForm = ReturnType<typeof useCalculatorForm>;

export function useFormValues(form: CalculatorForm): FormValues {
  return useSelector(form.store, (s) => s.values);
}

/** One field's value, subscribed on its own (a change elsewhere does not re-render it). */
export function useFieldValue<K extends keyof FormValues & string>(form: CalculatorForm, name: K): FormValues[K] {
  return useSelector(form.store, (s) => s.values[name]);
}

/** Class4 (commercial) clears every residential exemption choice (seed 000 §2). */
export function setPropertyType(form: CalculatorForm, value: PropertyType, edition?: Pick<Edition, 'formInputs'>): void {
  form.setFieldValue('propertyType', value);
  if (isCommercial(value) && edition) {
    for (const d of edition.formInputs) {
      if (isResidentialInput(d)) form.setFieldValue(d.id, emptyValue(d) as never);
    }
  }
}

/** A new county is saved for the next visit (seed 000 §3); a county without classes drops the property type. */
export function setCounty(form: CalculatorForm, edition: Edition, name: string): void {
  form.setFieldValue('county', name);
  if (name) setItem(KEYS.county, name);
  const county = edition.county(name);
  if (!county?.needsPropertyType && form.state.values.propertyType) form.setFieldValue('propertyType', '');
  // A year the new county's rules do not hold goes back to the latest.
  const year = form.state.values.year;
  if (year && !edition.years(county).includes(Number(year))) form.setFieldValue('year', '');
}
