// A bot that does not compile: the build must fail with g++'s message in its log.
int main() {
  return undeclared_name;
}
