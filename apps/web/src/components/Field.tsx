import { type ComponentProps, type ReactNode, useId } from 'react';
import { Options } from './Options.tsx';

/** A label and its select of `values` (siblings, as the form grids place them); `onChange` gets the value chosen. */
export function SelectField<T extends string | number>({
  label,
  values,
  optionLabel,
  onChange,
  children,
  ...select
}: Omit<ComponentProps<'select'>, 'id' | 'onChange'> & {
  label: ReactNode;
  values: readonly T[];
  optionLabel?: (value: T) => ReactNode;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <select id={id} {...select} onChange={(e) => onChange(e.target.value)}>
        {children}
        <Options values={values} label={optionLabel} />
      </select>
    </>
  );
}

/** A label and its input (siblings); `onChange` gets the text typed. */
export function InputField({
  label,
  onChange,
  ...input
}: Omit<ComponentProps<'input'>, 'id' | 'onChange'> & {
  label: ReactNode;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input id={id} {...input} onChange={(e) => onChange(e.target.value)} />
    </>
  );
}
