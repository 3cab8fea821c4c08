// A homework that does not compile: a missing semicolon.
#include <cstdio>

int main() {
    std::puts("no output.txt")
    return 0;
}
