import type { RoutePlugin } from '../app-context';
import { createUserRoute } from './accounts/create-user';
import { sendCodeRoute } from './accounts/send-code';
import { verifyCodeRoute } from './accounts/verify-code';
import { preloginRoute } from './accounts/prelogin';
import { loginRoute } from './accounts/login';
import { refreshTokenRoute } from './accounts/refresh-token';
import { verifySessionRoute } from './accounts/verify-session';
import { profileRoute } from './accounts/profile';
import { keyMaterialRoute } from './accounts/key-material';
import { logoutRoute } from './accounts/logout';
import { updateUsernameRoute } from './accounts/update-username';
import { changePasswordRoute } from './accounts/change-password';
import { deleteAccountRoute } from './accounts/delete-account';
import { listEntriesRoute } from './entries/list-entries';
import { addEntryRoute } from './entries/add-entry';
import { updateEntryRoute } from './entries/update-entry';
import { deleteEntryRoute } from './entries/delete-entry';

const routes: RoutePlugin[] = [
  createUserRoute,
  sendCodeRoute,
  verifyCodeRoute,
  preloginRoute,
  loginRoute,
  refreshTokenRoute,
  verifySessionRoute,
  profileRoute,
  keyMaterialRoute,
  logoutRoute,
  updateUsernameRoute,
  changePasswordRoute,
  deleteAccountRoute,
  listEntriesRoute,
  addEntryRoute,
  updateEntryRoute,
  deleteEntryRoute,
];

/** Every API route. Each is private unless its own options say `public: true`. */
export const registerRoutes: RoutePlugin = async (app, options) => {
  for (const route of routes) await app.register(route, options);
};
