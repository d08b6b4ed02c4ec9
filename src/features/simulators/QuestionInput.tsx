import { Field } from '../../components/ui/Field';
import { MaskedInput } from '../../components/ui/MaskedInput';
import { CheckboxField, RadioGroup, SelectField } from '../../components/ui/Choice';
import { TEXT_MAX_LENGTH } from '../../lib/products/questions';
import type { Question } from '../../lib/products/types';

interface Props {
  question: Question;
  /** The API's name of the field ('risco.areaHectares'): its error key and data-field. */
  fieldKey: string;
  value: string;
  error?: string;
  onChange(value: string): void;
}

/** One catalog question as the control its kind calls for, with a visible label. */
export function QuestionInput({ question, fieldKey, value, error, onChange }: Props) {
  const common = { label: question.label, error, hint: question.help };
  const control = (() => {
    switch (question.kind) {
      case 'money':
        return <MaskedInput {...common} mask="money" value={value} onChange={onChange} />;
      case 'area':
        return <MaskedInput {...common} mask="area" value={value} onChange={onChange} />;
      case 'integer':
        return <Field {...common} inputMode="numeric" value={value} onChange={(e) => onChange(e.target.value.replace(/\D/g, ''))} />;
      case 'date':
        return <Field {...common} type="date" value={value} onChange={(e) => onChange(e.target.value)} />;
      case 'select':
        return (
          <SelectField
            {...common}
            placeholder="Selecione"
            options={question.options ?? []}
            value={value}
            onChange={(e) => onChange(e.target.value)}
          />
        );
      case 'radio':
        return (
          <RadioGroup
            label={question.label}
            name={fieldKey}
            options={question.options ?? []}
            value={value}
            error={error}
            onChange={onChange}
          />
        );
      case 'boolean':
        return (
          <CheckboxField
            label={question.label}
            error={error}
            checked={value === 'true'}
            onChange={(e) => onChange(String(e.target.checked))}
          />
        );
      default:
        return <Field {...common} maxLength={TEXT_MAX_LENGTH} value={value} onChange={(e) => onChange(e.target.value)} />;
    }
  })();
  return <div data-field={fieldKey}>{control}</div>;
}
