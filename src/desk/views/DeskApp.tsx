import { deskMessages as m } from '../services/messages';
import { AuditPage } from './AuditPage';
import { BillView } from './BillView';
import { BillsList } from './BillsList';
import { Loading, PageTitle } from './common';
import { Desk } from './deskContext';
import { Layout } from './Layout';
import { NewBill } from './NewBill';
import { PasswordForm } from './PasswordForm';
import { Payments } from './Payments';
import { SettingsPage } from './SettingsPage';
import { SignIn } from './SignIn';
import { StaffPage } from './StaffPage';

/** The desk as its state says: the session being read, the sign-in, a new password, or a page in the desk's frame. */
export function DeskApp() {
  const desk = Desk.useActorRef();
  const view = Desk.useSelector((state) => {
    if (state.matches('checking') || state.matches('signingOut')) return 'loading' as const;
    if (state.matches('unavailable')) return 'unavailable' as const;
    if (state.matches('signedOut')) return 'signedOut' as const;
    if (state.matches('changingPassword')) return 'password' as const;
    return 'signedIn' as const;
  });
  const notice = Desk.useSelector((state) => state.context.notice);
  const signIn = Desk.useSelector((state) => state.children.signIn);
  const password = Desk.useSelector((state) => state.children.password);
  switch (view) {
    case 'loading':
      return (
        <main className="signin" id="main">
          <Loading />
        </main>
      );
    case 'unavailable':
      return (
        <main className="signin" id="main">
          <h1 className="page-title">{m.app.title}</h1>
          <p className="alert" role="alert">
            {m.app.loadFailed}
          </p>
          <div>
            <button type="button" className="button" onClick={() => desk.send({ type: 'retry' })}>
              {m.app.retry}
            </button>
          </div>
        </main>
      );
    case 'signedOut':
      return signIn ? <SignIn actor={signIn} notice={notice} /> : null;
    case 'password':
      return password ? <PasswordForm actor={password} onSignOut={() => desk.send({ type: 'desk.signOut' })} /> : null;
    case 'signedIn':
      return (
        <Layout>
          <Page />
        </Layout>
      );
  }
}

/** The page the route opened. */
function Page() {
  const page = Desk.useSelector((state) => {
    for (const name of ['bills', 'newBill', 'bill', 'payments', 'settings', 'staff', 'audit', 'forbidden'] as const) {
      if (state.matches({ signedIn: { page: name } })) return name;
    }
    return 'choosing' as const;
  });
  const children = Desk.useSelector((state) => state.children);
  switch (page) {
    case 'bills':
      return children.bills ? <BillsList actor={children.bills} /> : null;
    case 'newBill':
      return children.newBill ? <NewBill actor={children.newBill} /> : null;
    case 'bill':
      return children.bill ? <BillView actor={children.bill} /> : null;
    case 'payments':
      return children.payments ? <Payments actor={children.payments} /> : null;
    case 'settings':
      return children.settings ? <SettingsPage actor={children.settings} /> : null;
    case 'staff':
      return children.staff ? <StaffPage actor={children.staff} /> : null;
    case 'audit':
      return children.audit ? <AuditPage actor={children.audit} /> : null;
    case 'forbidden':
      return (
        <section className="panel">
          <PageTitle>{m.app.forbidden}</PageTitle>
        </section>
      );
    case 'choosing':
      return <Loading />;
  }
}
