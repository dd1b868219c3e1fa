import { useEffect } from 'react';
import { HomePage } from '@web/features/marketing/components/home-page';

export function Component() {
  useEffect(() => {
    document.title = 'Innerwave — subliminal affirmations, solfeggio and binaural beats';
  }, []);
  return <HomePage />;
}
