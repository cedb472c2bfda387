package io.eventplane.gateway.http;

import io.eventplane.gateway.api.ApiRequest;
import io.eventplane.gateway.api.ApiResponse;
import io.eventplane.gateway.auth.authn.Authentication;
import io.eventplane.gateway.wire.ApiException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a browser gets into the web console when the API requires credentials: a client certificate the browser holds
 * (TLS asks for one), or a bearer token (a static token, {@code kubectl create token}) typed into the login page,
 * which {@code POST /ui/login} checks and keeps in a cookie. The cookie authenticates GET and HEAD requests only (the
 * console reads; nothing a forged cross-site request could send through it writes), is HttpOnly, SameSite=Strict and,
 * over TLS, Secure; {@code /ui/logout} clears it.
 */
final class ConsoleLogin {
    static final String COOKIE = "eventplane-token";
    private static final String LOGIN = "/ui/login";
    private static final String LOGOUT = "/ui/logout";

    private ConsoleLogin() {
    }

    static boolean owns(String path) {
        return path.equals(LOGIN) || path.equals(LOGOUT);
    }

    /** A page (not the console's JSON under {@code /ui/api/}): a browser without credentials gets the login form. */
    static boolean isPage(String path) {
        return !path.startsWith("/ui/api/");
    }

    static ApiResponse handle(Authentication authentication, ApiRequest request, boolean secure) {
        if (request.path().equals(LOGOUT)) {
            return redirect().withHeader("Set-Cookie", cookie("", secure) + "; Max-Age=0");
        }
        if (!request.method().equals("POST")) {
            return page(200, null);
        }
        String token = form(new String(request.body(), StandardCharsets.UTF_8)).get("token");
        if (token == null || token.isBlank()) {
            return page(401, "Enter a token.");
        }
        try {
            authentication.authenticate("Bearer " + token.trim(), null, Map.of());
        } catch (ApiException e) {
            return page(401, "Unauthorized: the token is not valid.");
        }
        return redirect().withHeader("Set-Cookie", cookie(token.trim(), secure));
    }

    /**
     * The request with the cookie's token as its bearer credential: only for reads, and only when it brings no
     * credential of its own.
     */
    static ApiRequest withCookieToken(ApiRequest request) {
        if (!(request.method().equals("GET") || request.method().equals("HEAD"))
                || request.header("authorization") != null) {
            return request;
        }
        String token = cookieValue(request.headers().get("cookie"));
        if (token == null || token.isEmpty()) {
            return request;
        }
        Map<String, List<String>> headers = new LinkedHashMap<>(request.headers());
        headers.put("authorization", List.of("Bearer " + token));
        return new ApiRequest(request.method(), request.path(), request.query(), headers, request.body(),
                request.user(), request.realUser());
    }

    private static String cookieValue(List<String> cookieHeaders) {
        if (cookieHeaders == null) {
            return null;
        }
        for (String header : cookieHeaders) {
            for (String pair : header.split(";")) {
                String p = pair.trim();
                if (p.startsWith(COOKIE + "=")) {
                    return URLDecoder.decode(p.substring(COOKIE.length() + 1), StandardCharsets.UTF_8);
                }
            }
        }
        return null;
    }

    private static String cookie(String token, boolean secure) {
        return COOKIE + "=" + java.net.URLEncoder.encode(token, StandardCharsets.UTF_8)
                + "; Path=/; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
    }

    private static ApiResponse redirect() {
        return new ApiResponse(303, "text/plain", new byte[0], new ArrayList<>(), null).withHeader("Location", "/ui/");
    }

    private static Map<String, String> form(String body) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    /** The login form; {@code message} (plain text, ours) says why the last try failed. */
    static ApiResponse page(int status, String message) {
        String html = """
                <!doctype html>
                <html lang="en"><head><meta charset="utf-8"><title>Eventplane: log in</title>
                <style>body{font-family:sans-serif;max-width:32em;margin:4em auto}input{width:100%%;margin:.5em 0}</style>
                </head><body>
                <h1>Eventplane console</h1>
                <p>The API requires credentials. Use a client certificate of the cluster CA in the browser, or paste a
                bearer token (a static token, or <code>kubectl create token &lt;serviceaccount&gt;</code>).</p>
                %s
                <form id="login" method="post" action="/ui/login">
                <label for="token">Token</label><input id="token" name="token" type="password" autocomplete="off">
                <button id="submit" type="submit">Log in</button>
                </form></body></html>
                """.formatted(message == null ? "" : "<p id=\"error\" role=\"alert\">" + message + "</p>");
        return new ApiResponse(status, "text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8),
                new ArrayList<>(), null);
    }
}
