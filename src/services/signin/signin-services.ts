import type { Config } from '../../config.ts';
import type { Clock } from '../../domain/dates/clock.ts';
import type { Storage } from '../../storage/database.ts';
import { SessionsService } from './sessions-service.ts';
import { SigninService } from './signin-service.ts';

/** The sign-in services built from the configuration (the back office and the command line build the same ones). */
export function signinServices(deps: { storage: Storage; clock: Clock; config: Pick<Config, 'backOffice'> }): { sessions: SessionsService; signin: SigninService } {
  const settings = deps.config.backOffice;
  return {
    sessions: new SessionsService(deps.storage, settings, deps.clock),
    signin: new SigninService(deps.storage, settings.signinHashCost, deps.clock),
  };
}
