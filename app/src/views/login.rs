//! The admin login as a person meets it: the header's links (the corpora, uploads and the review
//! queue once logged in; "Log in" otherwise), the login form that shows the one button for the
//! state it is in, and the `/login` page, which any page can send a person to and which goes back
//! to that page.

use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_query_map};

use crate::backend::admin_form_token;
use crate::model::{encode, login_return};

/// Whether this request carries a login that holds (the server gives such a login a form token).
fn logged_in_resource() -> Resource<bool> {
    Resource::new(
        || (),
        |_| async { matches!(admin_form_token().await, Ok(Some(_))) },
    )
}

/// The page being shown, as a path with its query: where a login or logout goes back to. The
/// login page itself stands for the page that sent the person there.
fn current_page() -> Signal<String> {
    let location = use_location();
    let query = use_query_map();
    Signal::derive(move || {
        let path = location.pathname.get();
        if path == "/login" {
            return login_return(&query.read().get("next").unwrap_or_default()).to_string();
        }
        let search = location.search.get();
        if search.is_empty() {
            path
        } else {
            format!("{path}?{search}")
        }
    })
}

/// The header's admin links: with a login, the corpora, the upload form, the review queue and a
/// button to log out; without one, "Log in", back to this page afterwards. Known as the server
/// renders the page, so the header never holds back the page streamed below it (a page opened by
/// its URL says at once what it is doing); the header is made once, when the page hydrates.
#[component]
pub fn AdminNav() -> impl IntoView {
    let logged_in = SharedValue::new(crate::backend::logged_in_now).into_inner();
    let here = current_page();
    if logged_in {
        view! {
            <span class="admin-nav" id="admin-nav">
                <a href="/admin" id="nav-corpora">"Corpora"</a>
                <a href="/admin#add-documents" id="nav-upload">"Upload"</a>
                <a href="/admin/review" id="nav-review">"Review"</a>
                <LogoutButton next=here/>
            </span>
        }
        .into_any()
    } else {
        let href = move || format!("/login?next={}", encode(&here.get()));
        view! { <a href=href id="nav-login" rel="external">"Log in"</a> }.into_any()
    }
}

/// The admin token, posted once: the server keeps a login cookie, so no URL carries the token.
/// Logged in, nothing: the header's button logs out (issue 101: admin pages showed two). A
/// login goes back to `next`.
#[component]
pub fn LoginForm(
    /// Where to go back to after logging in or out.
    #[prop(into)]
    next: Signal<String>,
) -> impl IntoView {
    let logged_in = logged_in_resource();
    view! {
        <Suspense fallback=|| ()>
            {move || Suspend::new(async move {
                if logged_in.await {
                    ().into_any()
                } else {
                    view! {
                        <form method="post" action="/admin/login" class="token-form" id="login-form">
                            <input type="hidden" name="next" value=next/>
                            <label>"Admin token " <input type="password" name="token" autocomplete="current-password" required/></label>
                            <button type="submit">"Log in"</button>
                        </form>
                    }
                    .into_any()
                }
            })}
        </Suspense>
    }
}

#[component]
fn LogoutButton(next: Signal<String>) -> impl IntoView {
    view! {
        <form method="post" action="/admin/logout" class="token-form inline logout-form">
            <input type="hidden" name="next" value=next/>
            <button type="submit" class="secondary">"Log out"</button>
        </form>
    }
}

/// `/login?next=…`: the login form alone, with the reason a token was refused; a login goes back
/// to the page named by `next` (any page of this site).
#[component]
pub fn LoginPage() -> impl IntoView {
    let query = use_query_map();
    let error = move || query.read().get("error").filter(|e| !e.is_empty());
    let next = current_page();
    view! {
        <crate::title::PageTitle text=crate::title::page_title("Log in")/>
        <section class="admin">
            <h1>"Log in"</h1>
            <p class="muted">"The admin token opens the corpora, uploads, the review queue and the study's results."</p>
            {move || error().map(|e| view! { <p class="error" role="alert" id="login-error">{e}</p> })}
            <LoginForm next/>
        </section>
    }
}

/// The hidden field with the page's form token (issue 70): a form the login cookie alone admits
/// is refused without it, so that a page of another origin cannot post one.
#[component]
pub fn FormTokenField(
    /// The page's form token.
    form_token: String,
) -> impl IntoView {
    view! { <input type="hidden" name="form_token" value=form_token/> }
}

/// What a page without a login shows below the login form.
#[component]
pub fn LoginNeeded(
    /// What the login allows ("see the corpora").
    what: &'static str,
) -> impl IntoView {
    view! { <p class="muted" id="login-needed">{format!("Log in with the admin token to {what}.")}</p> }
}
