// Fast, exact decimal parsing for the text readers.
#pragma once

namespace animconv {

// Parses one decimal number at [*cursor, end): optional sign, digits, optional `decimal_mark`
// and digits, optional exponent. On success stores the correctly rounded double, advances
// *cursor past it and returns true. Rejects NaN, Inf and anything that is not a plain number
// (leaves *cursor unchanged and returns false).
bool ParseDecimal(const char** cursor, const char* end, char decimal_mark, double* out);

}  // namespace animconv
