// Small text helpers for writing self-contained HTML: escaping and base64 data URIs.
#pragma once

#include <span>
#include <string>

namespace referee::report {

std::string HtmlEscape(const std::string& text);
std::string Base64(std::span<const unsigned char> bytes);
std::string DataUri(const std::string& mime, std::span<const unsigned char> bytes);

}  // namespace referee::report
