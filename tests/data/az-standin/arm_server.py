#!/usr/bin/env python3
# A loopback stand-in for Azure Resource Manager and an AD FS token endpoint, so that the real
# Azure CLI (Debian 12's azure-cli 2.45) runs offline: its own requests, deserialisation,
# transforms and JSON output, answered with the REST bodies Microsoft documents (README.md
# names each body's source). HTTPS only (the CLI sends bearer tokens over TLS only), on
# 127.0.0.1, on the port given (0: any free one; the port is printed as the first line).
#
#   arm_server.py --cert C --key K --bodies DIR [--port 0] [--log FILE] [--gpu FILE] [--cpu FILE]
#                 [--no-accounts]
#
# Answers:
#   GET  .../adfs/.well-known/openid-configuration      the AD FS OpenID configuration
#   POST .../adfs/oauth2/token                          a client-credentials token
#   GET  /subscriptions                                 one subscription, 0000
#   GET  /tenants                                       its tenant, adfs
#   GET  /subscriptions/0000/providers/Microsoft.Storage/storageAccounts          the list
#   GET  /subscriptions/0000/resourceGroups/rg-ml/providers/Microsoft.Storage/storageAccounts/N
#   GET  <resource>/providers/Microsoft.Insights/metrics  Metrics - List, $top honoured
import argparse
import json
import os
import ssl
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SUB = "0000"


def load(bodies, name):
    with open(os.path.join(bodies, name)) as f:
        return json.load(f)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def send_json(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("x-ms-request-id", "00000000-0000-0000-0000-000000000001")
        self.end_headers()
        self.wfile.write(data)

    def error(self, status, code, message):
        self.send_json(status, {"error": {"code": code, "message": message}})

    def record(self):
        if self.server.log:
            with open(self.server.log, "a") as f:
                f.write(json.dumps({"method": self.command, "path": self.path}) + "\n")

    def do_POST(self):
        self.record()
        length = int(self.headers.get("Content-Length", "0"))
        form = urllib.parse.parse_qs(self.rfile.read(length).decode())
        if not urllib.parse.urlparse(self.path).path.endswith("/oauth2/token"):
            return self.error(404, "NotFound", "no such endpoint")
        if form.get("grant_type", [""])[0] != "client_credentials":
            return self.error(400, "invalid_grant", "client credentials only")
        # Microsoft identity platform, client credentials flow: the token response.
        self.send_json(200, {"token_type": "Bearer", "expires_in": 3599, "ext_expires_in": 3599,
                             "access_token": "loopback-test-token"})

    def do_GET(self):
        self.record()
        url = urllib.parse.urlparse(self.path)
        path = url.path.rstrip("/")
        query = urllib.parse.parse_qs(url.query)
        base = "https://%s:%d" % self.server.server_address[:2]
        if path.endswith("/.well-known/openid-configuration"):
            authority = base + path[: -len("/.well-known/openid-configuration")]
            return self.send_json(200, {
                "issuer": authority,
                "authorization_endpoint": authority + "/oauth2/authorize",
                "token_endpoint": authority + "/oauth2/token",
                "token_endpoint_auth_methods_supported": ["client_secret_post"],
                "response_types_supported": ["code", "token"],
                "grant_types_supported": ["client_credentials"]})
        if self.headers.get("Authorization", "") != "Bearer loopback-test-token":
            return self.error(401, "AuthenticationFailed", "no bearer token")
        if path == "/subscriptions":
            return self.send_json(200, load(self.server.bodies, "rest-subscriptions.json"))
        if path == "/tenants":
            return self.send_json(200, {"value": [{"id": "/tenants/adfs", "tenantId": "adfs"}]})
        # --no-accounts: the subscription holds none of them (they are in another one).
        accounts = ({"value": []} if self.server.no_accounts
                    else load(self.server.bodies, "rest-storage-accounts.json"))
        if path == "/subscriptions/%s/providers/Microsoft.Storage/storageAccounts" % SUB:
            return self.send_json(200, accounts)
        for account in accounts["value"]:
            if path.lower() == account["id"].lower():
                return self.send_json(200, account)
        if path.endswith("/providers/Microsoft.Insights/metrics"):
            return self.metrics(path[: -len("/providers/Microsoft.Insights/metrics")], query)
        return self.error(404, "ResourceNotFound", "The Resource '%s' was not found." % path)

    def metrics(self, resource, query):
        names = query.get("metricnames", [""])[0].split(",")
        if names[0] == "GpuUtilization":
            body = load(os.path.dirname(self.server.gpu), os.path.basename(self.server.gpu))
        elif names[0] == "CpuUtilization":
            body = load(os.path.dirname(self.server.cpu), os.path.basename(self.server.cpu))
        elif names[0] == "Transactions":
            body = load(self.server.bodies, "monitor-transactions.json")
        else:
            body = load(self.server.bodies, "monitor-egress.json")
        # Metrics - List: with a $filter, at most $top series per metric (10 when not given).
        if "$filter" in query:
            top = int(query.get("top", query.get("$top", ["10"]))[0])
            for metric in body["value"]:
                metric["timeseries"] = metric["timeseries"][:top]
        if query.get("interval", ["PT1M"])[0] != body["interval"]:
            return self.error(400, "BadRequest", "interval %s not kept" % query.get("interval"))
        return self.send_json(200, body)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cert", required=True)
    p.add_argument("--key", required=True)
    p.add_argument("--bodies", required=True)
    p.add_argument("--gpu", default="")
    p.add_argument("--cpu", default="")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--log", default="")
    p.add_argument("--no-accounts", action="store_true")
    a = p.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", a.port), Handler)
    server.bodies = a.bodies
    server.gpu = a.gpu or os.path.join(a.bodies, "monitor-gpu-empty.json")
    server.cpu = a.cpu or os.path.join(a.bodies, "monitor-cpu-empty.json")
    server.log = a.log
    server.no_accounts = a.no_accounts
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(a.cert, a.key)
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
    print(server.server_address[1], flush=True)
    sys.stdout.close()
    server.serve_forever()


if __name__ == "__main__":
    main()
