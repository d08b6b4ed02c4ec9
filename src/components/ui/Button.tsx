import type { ButtonHTMLAttributes } from 'react';

export type ButtonSize = 'small' | 'medium' | 'large';
export type ButtonVariant = 'primary' | 'secondary' | 'outline';

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  size?: ButtonSize;
  variant?: ButtonVariant;
  block?: boolean;
  loading?: boolean;
}

export const buttonClass = (variant: ButtonVariant = 'primary', size: ButtonSize = 'medium', block = false) =>
  ['button', `button-${variant}`, size === 'medium' ? '' : `button-${size}`, block ? 'button-block' : ''].filter(Boolean).join(' ');

export function Button({ size, variant, block, loading, children, disabled, ...rest }: ButtonProps) {
  return (
    <button {...rest} className={buttonClass(variant, size, block)} disabled={disabled || loading} aria-busy={loading || undefined}>
      {loading ? 'Aguarde…' : children}
    </button>
  );
}
