//! Tally's web pages: Leptos components rendered on the server (`ssr`) and hydrated in the browser
//! (`hydrate`). Data comes from server functions; nothing here answers questions itself.

// The question form's view type nests deeper than the compiler's default limit.
#![recursion_limit = "256"]

pub mod backend;
pub mod format;
pub mod model;
pub mod pages;
#[cfg(feature = "hydrate")]
pub mod progress;
pub mod status;
pub mod title;
pub mod views;

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, HashedStylesheet, Meta, MetaTags};
use leptos_router::components::{Route, Router, Routes};
use leptos_router::{ParamSegment, SsrMode, StaticSegment};

use title::{PageTitle, HOME_TITLE};

/// The HTML document around the app, rendered on the server.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    #[cfg(feature = "ssr")]
    set_content_security_policy();
    // The theme is the server's to set: the page is right from its first paint, without script.
    #[cfg(feature = "ssr")]
    let theme =
        backend::request_cookie(model::THEME_COOKIE).filter(|t| t == "light" || t == "dark");
    #[cfg(not(feature = "ssr"))]
    let theme: Option<String> = None;
    view! {
        <!DOCTYPE html>
        <html lang="en" data-theme=theme>
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <meta name="color-scheme" content="light dark"/>
                <link rel="icon" href="/favicon.ico"/>
                <HashedStylesheet options=options.clone() id="tally-style"/>
                <HydrationScripts options/>
                <MetaTags/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
}

/// The application: routes and shared chrome.
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    // Effects run only in the browser: this marks the page once the WASM app has taken over.
    let hydrated = RwSignal::new(false);
    Effect::new(move |_| hydrated.set(true));
    view! {
        <PageTitle text=HOME_TITLE/>
        <Meta
            name="description"
            content="Tally answers how-many questions, value questions and quantity conditions from text, and shows the evidence and how sure it is."
        />
        <Router>
            <a class="skip-link" href="#main">"Skip to the content"</a>
            <header class="site-header">
                <a class="brand" href="/">"Tally"</a>
                <span class="tagline">"Count and quantity questions, answered from text with evidence"</span>
                <nav class="site-nav" aria-label="Main">
                    <a href="/">"Ask"</a>
                    <a href="/history">"History"</a>
                    <a href="/study">"Study"</a>
                    <a href="/api-docs">"API"</a>
                    <views::login::AdminNav/>
                </nav>
                <form class="theme-switch" method="post" action="/theme" aria-label="Theme">
                    <button type="submit" name="theme" value="light" title="Light theme">"Light"</button>
                    <button type="submit" name="theme" value="dark" title="Dark theme">"Dark"</button>
                    <button type="submit" name="theme" value="system" title="Follow the system">"Auto"</button>
                </form>
            </header>
            <main id="main" tabindex="-1" data-hydrated=move || if hydrated.get() { "true" } else { "false" }>
                // In-order streaming: the page reads fully without JavaScript.
                <Routes fallback=|| view! { <pages::NotFound/> }>
                    <Route path=StaticSegment("") view=pages::HomePage ssr=SsrMode::InOrder/>
                    <Route path=StaticSegment("history") view=views::history::HistoryPage ssr=SsrMode::InOrder/>
                    <Route path=StaticSegment("status") view=pages::StatusPage ssr=SsrMode::InOrder/>
                    <Route path=StaticSegment("api-docs") view=views::api::ApiPage ssr=SsrMode::Async/>
                    <Route path=StaticSegment("login") view=views::login::LoginPage ssr=SsrMode::Async/>
                    // Study pages wait for their data before sending anything, so a missing
                    // session or a refused token always carries its HTTP status.
                    <Route path=StaticSegment("study") view=views::study::StudyHomePage ssr=SsrMode::Async/>
                    <Route path=(StaticSegment("study"), StaticSegment("summary")) view=views::study::StudySummaryPage ssr=SsrMode::Async/>
                    <Route path=(StaticSegment("study"), StaticSegment("s"), ParamSegment("session")) view=views::study::StudySessionPage ssr=SsrMode::Async/>
                    <Route path=StaticSegment("admin") view=views::admin::AdminPage ssr=SsrMode::Async/>
                    <Route path=(StaticSegment("admin"), StaticSegment("jobs"), ParamSegment("id")) view=views::admin::AdminJobPage ssr=SsrMode::Async/>
                    <Route path=(StaticSegment("admin"), StaticSegment("corpora"), ParamSegment("name")) view=views::admin::AdminCorpusPage ssr=SsrMode::Async/>
                    <Route path=(StaticSegment("admin"), StaticSegment("review")) view=views::review::ReviewPage ssr=SsrMode::Async/>
                </Routes>
            </main>
        </Router>
    }
}

/// Only the app's own files run: inline scripts (hydration, resolved data) carry the request's
/// nonce, WASM may be compiled, nothing is loaded from elsewhere.
#[cfg(feature = "ssr")]
fn set_content_security_policy() {
    use leptos::nonce::use_nonce;
    let (Some(nonce), Some(response)) =
        (use_nonce(), use_context::<leptos_axum::ResponseOptions>())
    else {
        return;
    };
    let policy = format!(
        "default-src 'self'; script-src 'self' 'nonce-{nonce}' 'wasm-unsafe-eval'; \
         style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; \
         object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
    );
    if let Ok(value) = http::HeaderValue::from_str(&policy) {
        response.insert_header(http::header::CONTENT_SECURITY_POLICY, value);
    }
}

/// Browser entry point: attaches the server-rendered page to the WASM app.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(App);
}
