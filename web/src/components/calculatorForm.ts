/** One TanStack form holds the calculator's state; the desktop form and the mobile wizard both edit it. */
import { useForm, useSelector } from '@tanstack/react-form';
import { DEFAULT_FORM, RESIDENTIAL_FIELDS, isCommercial, type Edition, type FormValues, type PropertyType } from '../lib/model.js';
import { KEYS, setItem } from '../lib/storage.js';

export function useCalculatorForm(initial: FormValues = DEFAULT_FORM) {
  return useForm({ defaultValues: initial });
}
export type CalculatorForm = ReturnType<typeof useCalculatorForm>;

export function useFormValues(form: CalculatorForm): FormValues {
  return useSelector(form.store, (s) => s.values);
}

/** Class4 (commercial) clears every residential exemption choice (seed 000 §2). */
export function setPropertyType(form: CalculatorForm, value: PropertyType): void {
  form.setFieldValue('propertyType', value);
  if (isCommercial(value)) {
    for (const f of RESIDENTIAL_FIELDS) form.setFieldValue(f, DEFAULT_FORM[f] as never);
    form.setFieldValue('seniorIncome', null);
  }
}

/** A new county is saved for the next visit (seed 000 §3); a county without classes drops the property type. */
export function setCounty(form: CalculatorForm, edition: Edition, name: string): void {
  form.setFieldValue('county', name);
  if (name) setItem(KEYS.county, name);
  const county = edition.county(name);
  if (!county?.needsPropertyType && form.state.values.propertyType) form.setFieldValue('propertyType', '');
}
