// The system's OpenSSL libcrypto (Debian: libssl-dev), through its EVP API (the non-deprecated
// one in OpenSSL 3): SHA-256 for RunnectStore's content hashes, HMAC-SHA-256 for PostgreSQL's
// SCRAM and the server's own tokens, RSA and ECDSA verification of sign-in ID tokens (a public
// key read from DER by d2i_PUBKEY). No stable API.
#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <openssl/x509.h>
